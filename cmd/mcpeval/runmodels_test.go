package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandRunsNoModel: as docs/architecture.md says, the command runs
// every model through pipeline.RunModels and never calls pipeline.Run or
// runner.Run itself.
func TestCommandRunsNoModel(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); ok && sel.Sel.Name == "Run" && (pkg.Name == "pipeline" || pkg.Name == "runner") {
				t.Errorf("%s: calls %s.Run: run models through pipeline.RunModels", fset.Position(call.Pos()), pkg.Name)
			}
			return true
		})
	}
}
