package compare

import "github.com/mcpeval/mcpeval/internal/termsafe"

// onSurface labels, for a terminal, the surface a run measured: " on
// surface NAME", or nothing for a suite without surfaces.
func onSurface(r RunInfo) string {
	if r.Surface == "" {
		return ""
	}
	return " on surface " + termsafe.Line(r.Surface)
}

// mdSurface is onSurface for Markdown.
func mdSurface(r RunInfo) string {
	if r.Surface == "" {
		return ""
	}
	return " on surface " + mdText(r.Surface)
}
