package record

// Surface is the surface of a suite a run measured: one presentation of
// the same capabilities (see suite.Surface). Calls on a mapped surface are
// recorded as the model made them; grading reads them back to the
// canonical actions with Map, and judges them against Canonical. On a
// search surface (Kind "search") the model was shown the harness's
// search_tools, describe_tool and call_tool over the tools of Header.Tools:
// grading reads each call_tool{name, arguments} back as that tool's call,
// and leaves the searches (calls of Kind CallSearch) out.
type Surface struct {
	// Name is the surface's name in the suite ("individual", "meta").
	Name string `json:"name"`
	// Kind is "search" for a search surface; empty for any other.
	Kind string `json:"kind,omitempty"`
	// Map maps each canonical tool to the surface's tool and the fixed
	// arguments that select it; empty on the canonical surface.
	Map map[string]SurfaceCall `json:"map,omitempty"`
	// Canonical are the canonical surface's tool definitions (schemas and
	// annotations), as its target listed them when the run started; empty
	// on the canonical surface, whose definitions are Header.Tools.
	Canonical []Tool `json:"canonical,omitempty"`
	// Shown are the tools the model was shown in place of Header.Tools on
	// a search surface (search_tools, describe_tool and call_tool): what
	// every request carried, and what the surface's tool list cost.
	Shown []Tool `json:"shown,omitempty"`
}

// SurfaceCall is where a canonical tool lives on a surface: the surface's
// tool and the fixed arguments that select it.
type SurfaceCall struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args,omitempty"`
	// Under is the dotted path of the object argument the canonical
	// arguments go into; empty for the top level.
	Under string `json:"under,omitempty"`
}
