package record

// Surface is the surface of a suite a run measured: one presentation of
// the same capabilities (see suite.Surface). Calls on a mapped surface are
// recorded as the model made them; grading reads them back to the
// canonical actions with Map, and judges them against Canonical.
type Surface struct {
	// Name is the surface's name in the suite ("individual", "meta").
	Name string `json:"name"`
	// Map maps each canonical tool to the surface's tool and the fixed
	// arguments that select it; empty on the canonical surface.
	Map map[string]SurfaceCall `json:"map,omitempty"`
	// Canonical are the canonical surface's tool definitions (schemas and
	// annotations), as its target listed them when the run started; empty
	// on the canonical surface, whose definitions are Header.Tools.
	Canonical []Tool `json:"canonical,omitempty"`
}

// SurfaceCall is where a canonical tool lives on a surface: the surface's
// tool and the fixed arguments that select it.
type SurfaceCall struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args,omitempty"`
}
