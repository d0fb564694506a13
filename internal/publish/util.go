package publish

import (
	"maps"
	"slices"
	"sort"
	"strings"
)

func sortRows(rows []Row) {
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Key() < rows[j].Key() })
}

// options writes request options as "k=v; k=v", sorted.
func options(m map[string]string) string {
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, "; ")
}
