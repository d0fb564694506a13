package ops

import (
	"fmt"
)

// SystemOut describes the host.
type SystemOut struct {
	Version    string         `json:"version"`
	Host       string         `json:"host"`
	Containers map[string]int `json:"containers" jsonschema:"how many containers are in each state"`
	Images     int            `json:"images"`
	Volumes    int            `json:"volumes"`
	Networks   int            `json:"networks"`
	Projects   int            `json:"projects"`
	Users      int            `json:"users"`
}

type eventsIn struct {
	Limit int `json:"limit,omitempty" jsonschema:"how many of the latest changes to return, 1 to 200; 20 when left out"`
}

// EventsOut lists the latest changes, newest first.
type EventsOut struct {
	Events []Event `json:"events"`
}

// addSystemTools registers the tools about the host as a whole.
func addSystemTools(c *catalog) {
	c.domain("system", "system")
	add(c, read, "get_system_info", "Host information",
		"Show the host's name and software version and how many containers (by state), images, volumes, networks, projects and users it has.",
		nil, getSystemInfo)
	add(c, read, "list_events", "Recent changes",
		"List the latest changes made on the host (what was created, started, stopped, removed...), newest first.",
		nil, listEvents)
}

// getSystemInfo is the tool get_system_info.
func getSystemInfo(st *State, _ noInput) (SystemOut, error) {
	out := SystemOut{Version: st.version, Host: st.host, Containers: map[string]int{"created": 0, "running": 0, "exited": 0},
		Images: len(st.images), Volumes: len(st.volumes), Networks: len(st.networks), Projects: len(st.projects), Users: len(st.users)}
	for _, c := range st.containers {
		out.Containers[c.State]++
	}
	return out, nil
}

// listEvents is the tool list_events.
func listEvents(st *State, in eventsIn) (EventsOut, error) {
	n := in.Limit
	if n == 0 {
		n = 20
	}
	if n < 1 || n > 200 {
		return EventsOut{}, fmt.Errorf("limit is %d: want 1 to 200", n)
	}
	out := EventsOut{Events: []Event{}}
	for i := len(st.events) - 1; i >= 0 && len(out.Events) < n; i-- {
		out.Events = append(out.Events, st.events[i])
	}
	return out, nil
}
