package ops

import (
	"context"
	"fmt"
	"github.com/mcpeval/mcpeval/internal/builtin/mcpserver"
	"net/netip"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Kinds of tool, by what they may do.
const (
	read = iota
	write
	destructive
)

// NewServer returns an MCP server, named "ops", serving st: its tools read
// and change st. Every tool is served: the host is a sandbox, and its write
// and destructive tools are what an action suite evaluates.
func NewServer(st *State) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "ops", Title: "Ops host manager", Version: "2.4.1"}, &mcp.ServerOptions{
		SchemaCache: schemaCache,
		Instructions: "Manage one container host: containers, images, volumes, networks, projects (groups of containers) and the users who may log in. " +
			"Containers, volumes, networks and images are named by name, full id or short id; projects and users by id only (list_projects and list_users give them). " +
			"Destructive tools do nothing unless called with confirm: true, which should be set only when the user has clearly asked for that change.",
	})
	s.AddReceivingMiddleware(mcpserver.NullArguments)
	addContainerTools(s, st)
	addVolumeTools(s, st)
	addNetworkTools(s, st)
	addProjectTools(s, st)
	addUserTools(s, st)
	addImageTools(s, st)
	addSystemTools(s, st)
	return s
}

// schemaCache and inputSchemas keep the tools' schemas from one server to
// the next: a suite with fresh_target makes a server per attempt, and
// inferring and resolving three dozen schemas each time would dominate.
var (
	schemaCache  = mcp.NewSchemaCache()
	inputSchemas sync.Map // tool name -> *jsonschema.Schema
)

// add registers a tool whose structured result is its text too. enums
// restricts top-level string arguments to the values listed.
func add[In, Out any](s *mcp.Server, st *State, kind int, name, title, desc string, enums map[string][]any, fn func(*State, In) (Out, error)) {
	var schema *jsonschema.Schema
	if v, ok := inputSchemas.Load(name); ok {
		schema = v.(*jsonschema.Schema)
	} else {
		var err error
		schema, err = jsonschema.For[In](nil)
		if err != nil {
			panic(fmt.Sprintf("ops: schema of %s: %v", name, err))
		}
		for prop, vals := range enums {
			p, ok := schema.Properties[prop]
			if !ok {
				panic(fmt.Sprintf("ops: %s has no argument %s", name, prop))
			}
			p.Enum = vals
		}
		v, _ := inputSchemas.LoadOrStore(name, schema)
		schema = v.(*jsonschema.Schema)
	}
	ann := &mcp.ToolAnnotations{Title: title, OpenWorldHint: ptr(false)}
	switch kind {
	case read:
		ann.ReadOnlyHint = true
	case write:
		ann.DestructiveHint = ptr(false)
	case destructive:
		ann.DestructiveHint = ptr(true)
	}
	mcp.AddTool(s, &mcp.Tool{Name: name, Title: title, Description: desc, InputSchema: schema, Annotations: ann},
		func(_ context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
			st.mu.Lock()
			defer st.mu.Unlock()
			out, err := fn(st, in)
			return nil, out, err
		})
}

func ptr[T any](v T) *T { return &v }

// confirmed refuses a destructive call made without confirm: true.
func confirmed(tool string, confirm bool) error {
	if !confirm {
		return fmt.Errorf("%s is destructive, so nothing was done: call it again with confirm: true, once the user has clearly asked for this change", tool)
	}
	return nil
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$`)

func checkName(what, name string) error {
	if !nameRE.MatchString(name) {
		return fmt.Errorf("%s name %q: use letters, digits, '.', '_' and '-', starting with a letter or digit, at most 63 characters", what, name)
	}
	return nil
}

var restartPolicies = []any{"no", "always", "on-failure", "unless-stopped"}

// Containers.

// ContainerOut is a container as the tools show it.
type ContainerOut struct {
	ID            string     `json:"id"`
	ShortID       string     `json:"short_id"`
	Name          string     `json:"name"`
	Image         string     `json:"image"`
	State         string     `json:"state" jsonschema:"created (never started), running or exited"`
	ProjectID     string     `json:"project_id,omitempty" jsonschema:"the project it belongs to, if any"`
	Networks      []string   `json:"networks" jsonschema:"names of the networks it is connected to"`
	Mounts        []MountOut `json:"mounts"`
	RestartPolicy string     `json:"restart_policy"`
	MemoryMB      int        `json:"memory_mb" jsonschema:"memory limit in MB; 0 for none"`
}

// MountOut is a volume mounted into a container.
type MountOut struct {
	Volume string `json:"volume" jsonschema:"the volume's name"`
	Path   string `json:"path" jsonschema:"where it is mounted in the container"`
}

func (s *State) containerOut(c *container) ContainerOut {
	out := ContainerOut{ID: c.ID, ShortID: c.ID[:12], Name: c.Name, Image: c.ImageRef, State: c.State, ProjectID: c.ProjectID,
		Networks: []string{}, Mounts: []MountOut{}, RestartPolicy: c.RestartPolicy, MemoryMB: c.MemoryMB}
	for _, id := range c.NetworkIDs {
		if n, err := s.network(id); err == nil {
			out.Networks = append(out.Networks, n.Name)
		}
	}
	for _, m := range c.Mounts {
		if v, err := s.volume(m.VolumeID); err == nil {
			out.Mounts = append(out.Mounts, MountOut{Volume: v.Name, Path: m.Path})
		}
	}
	return out
}

type listContainersIn struct {
	State     string `json:"state,omitempty" jsonschema:"only containers in this state"`
	ProjectID string `json:"project_id,omitempty" jsonschema:"only the containers of this project (its id, from list_projects)"`
	Image     string `json:"image,omitempty" jsonschema:"only containers running this image reference (name:tag)"`
}

// ContainersOut lists containers.
type ContainersOut struct {
	Containers []ContainerOut `json:"containers"`
}

type containerRef struct {
	ContainerID string `json:"container_id" jsonschema:"the container's name, id or short id"`
}

type logsIn struct {
	ContainerID string `json:"container_id" jsonschema:"the container's name, id or short id"`
	Tail        int    `json:"tail,omitempty" jsonschema:"how many of the latest log lines to return, 1 to 500; 50 when left out"`
}

// LogsOut is a container's latest log lines, oldest first.
type LogsOut struct {
	Container string   `json:"container"`
	Lines     []string `json:"lines"`
}

type mountIn struct {
	VolumeID string `json:"volume_id" jsonschema:"the volume's name, id or short id"`
	Path     string `json:"path" jsonschema:"absolute path inside the container"`
}

type createContainerIn struct {
	Name          string    `json:"name" jsonschema:"the new container's name, unique on the host"`
	Image         string    `json:"image" jsonschema:"image reference (name:tag); it must already be on the host (pull_image)"`
	ProjectID     string    `json:"project_id,omitempty" jsonschema:"the project to put it in (its id, from list_projects)"`
	NetworkID     string    `json:"network_id,omitempty" jsonschema:"a network to connect it to (name, id or short id)"`
	Mounts        []mountIn `json:"mounts,omitempty" jsonschema:"volumes to mount"`
	RestartPolicy string    `json:"restart_policy,omitempty" jsonschema:"when the host restarts it; no when left out"`
	MemoryMB      int       `json:"memory_mb,omitempty" jsonschema:"memory limit in MB; none when left out"`
}

type stopIn struct {
	ContainerID    string `json:"container_id" jsonschema:"the container's name, id or short id"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" jsonschema:"how long to wait for it to exit before killing it, 1 to 600; 10 when left out"`
}

type renameIn struct {
	ContainerID string `json:"container_id" jsonschema:"the container's name, id or short id"`
	NewName     string `json:"new_name" jsonschema:"the name it should have"`
}

type updateContainerIn struct {
	ContainerID   string `json:"container_id" jsonschema:"the container's name, id or short id"`
	RestartPolicy string `json:"restart_policy,omitempty" jsonschema:"when the host restarts it"`
	MemoryMB      int    `json:"memory_mb,omitempty" jsonschema:"memory limit in MB, at least 16"`
}

type removeContainerIn struct {
	ContainerID string `json:"container_id" jsonschema:"the container's name, id or short id"`
	Force       bool   `json:"force,omitempty" jsonschema:"remove it even while it is running (it is killed first)"`
	Confirm     bool   `json:"confirm,omitempty" jsonschema:"must be true, or nothing is removed; set it only when the user has clearly asked"`
}

// RemovedOut says what a destructive tool removed.
type RemovedOut struct {
	Removed string `json:"removed" jsonschema:"the name of what was removed"`
	ID      string `json:"id"`
}

func addContainerTools(s *mcp.Server, st *State) {
	add(s, st, read, "list_containers", "List containers",
		"List the host's containers, running or not, with their state, image, project, networks and mounts. Filters narrow the list; with none, every container is listed.",
		map[string][]any{"state": {"created", "running", "exited"}},
		func(st *State, in listContainersIn) (ContainersOut, error) {
			out := ContainersOut{Containers: []ContainerOut{}}
			for _, c := range st.containers {
				if (in.State == "" || c.State == in.State) && (in.ProjectID == "" || c.ProjectID == in.ProjectID) && (in.Image == "" || c.ImageRef == in.Image) {
					out.Containers = append(out.Containers, st.containerOut(c))
				}
			}
			return out, nil
		})
	add(s, st, read, "get_container", "Inspect a container",
		"Show one container: its state, image, project, networks, mounted volumes, restart policy and memory limit.",
		nil, func(st *State, in containerRef) (ContainerOut, error) {
			c, err := st.container(in.ContainerID)
			if err != nil {
				return ContainerOut{}, err
			}
			return st.containerOut(c), nil
		})
	add(s, st, read, "get_container_logs", "Container logs",
		"Return a container's latest log lines, oldest first.",
		nil, func(st *State, in logsIn) (LogsOut, error) {
			c, err := st.container(in.ContainerID)
			if err != nil {
				return LogsOut{}, err
			}
			n := in.Tail
			if n == 0 {
				n = 50
			}
			if n < 1 || n > 500 {
				return LogsOut{}, fmt.Errorf("tail is %d: want 1 to 500", n)
			}
			lines := c.Logs
			if len(lines) > n {
				lines = lines[len(lines)-n:]
			}
			return LogsOut{Container: c.Name, Lines: append([]string{}, lines...)}, nil
		})
	add(s, st, write, "create_container", "Create a container",
		"Create a container from an image already on the host. It is created stopped (state created): start it with start_container. Optionally put it in a project, connect it to a network and mount volumes.",
		map[string][]any{"restart_policy": restartPolicies},
		func(st *State, in createContainerIn) (ContainerOut, error) {
			if err := checkName("container", in.Name); err != nil {
				return ContainerOut{}, err
			}
			if _, err := st.container(in.Name); err == nil {
				return ContainerOut{}, fmt.Errorf("a container named %s already exists", in.Name)
			}
			if st.imageByRef(in.Image) == nil {
				return ContainerOut{}, fmt.Errorf("image %s is not on this host: pull it with pull_image first", in.Image)
			}
			c := &container{Name: in.Name, ImageRef: in.Image, State: "created", RestartPolicy: in.RestartPolicy, MemoryMB: in.MemoryMB, NetworkIDs: []string{}}
			if c.RestartPolicy == "" {
				c.RestartPolicy = "no"
			}
			if in.MemoryMB != 0 && in.MemoryMB < 16 {
				return ContainerOut{}, fmt.Errorf("memory_mb is %d: want at least 16", in.MemoryMB)
			}
			if in.ProjectID != "" {
				p, err := st.project(in.ProjectID)
				if err != nil {
					return ContainerOut{}, err
				}
				c.ProjectID = p.ID
			}
			if in.NetworkID != "" {
				n, err := st.network(in.NetworkID)
				if err != nil {
					return ContainerOut{}, err
				}
				c.NetworkIDs = append(c.NetworkIDs, n.ID)
			}
			for _, m := range in.Mounts {
				v, err := st.volume(m.VolumeID)
				if err != nil {
					return ContainerOut{}, err
				}
				if !strings.HasPrefix(m.Path, "/") {
					return ContainerOut{}, fmt.Errorf("mount path %q: want an absolute path", m.Path)
				}
				c.Mounts = append(c.Mounts, mount{VolumeID: v.ID, Path: m.Path})
			}
			c.ID = st.newID("container")
			st.containers = append(st.containers, c)
			st.record("create_container", "container "+c.Name)
			return st.containerOut(c), nil
		})
	add(s, st, write, "start_container", "Start a container",
		"Start a created or exited container. Starting a running container changes nothing.",
		nil, func(st *State, in containerRef) (ContainerOut, error) {
			c, err := st.container(in.ContainerID)
			if err != nil {
				return ContainerOut{}, err
			}
			if c.State != "running" {
				c.State = "running"
				c.Logs = append(c.Logs, "started "+c.ImageRef)
				st.record("start_container", "container "+c.Name)
			}
			return st.containerOut(c), nil
		})
	add(s, st, write, "stop_container", "Stop a container",
		"Stop a running container (it exits and keeps its data). Stopping a stopped container changes nothing.",
		nil, func(st *State, in stopIn) (ContainerOut, error) {
			c, err := st.container(in.ContainerID)
			if err != nil {
				return ContainerOut{}, err
			}
			if in.TimeoutSeconds < 0 || in.TimeoutSeconds > 600 {
				return ContainerOut{}, fmt.Errorf("timeout_seconds is %d: want 1 to 600", in.TimeoutSeconds)
			}
			if c.State == "running" {
				c.State = "exited"
				c.Logs = append(c.Logs, "stopped")
				st.record("stop_container", "container "+c.Name)
			}
			return st.containerOut(c), nil
		})
	add(s, st, write, "restart_container", "Restart a container",
		"Stop a container if it is running, then start it again.",
		nil, func(st *State, in containerRef) (ContainerOut, error) {
			c, err := st.container(in.ContainerID)
			if err != nil {
				return ContainerOut{}, err
			}
			c.State = "running"
			c.Logs = append(c.Logs, "restarted")
			st.record("restart_container", "container "+c.Name)
			return st.containerOut(c), nil
		})
	add(s, st, write, "rename_container", "Rename a container",
		"Give a container another name; its id stays the same.",
		nil, func(st *State, in renameIn) (ContainerOut, error) {
			c, err := st.container(in.ContainerID)
			if err != nil {
				return ContainerOut{}, err
			}
			if err := checkName("container", in.NewName); err != nil {
				return ContainerOut{}, err
			}
			if o, err := st.container(in.NewName); err == nil && o != c {
				return ContainerOut{}, fmt.Errorf("a container named %s already exists", in.NewName)
			}
			st.record("rename_container", "container "+c.Name+" -> "+in.NewName)
			c.Name = in.NewName
			return st.containerOut(c), nil
		})
	add(s, st, write, "update_container", "Update a container's settings",
		"Change a container's restart policy or memory limit without recreating it. Give at least one of them.",
		map[string][]any{"restart_policy": restartPolicies},
		func(st *State, in updateContainerIn) (ContainerOut, error) {
			c, err := st.container(in.ContainerID)
			if err != nil {
				return ContainerOut{}, err
			}
			if in.RestartPolicy == "" && in.MemoryMB == 0 {
				return ContainerOut{}, fmt.Errorf("nothing to change: give restart_policy or memory_mb")
			}
			if in.MemoryMB != 0 && in.MemoryMB < 16 {
				return ContainerOut{}, fmt.Errorf("memory_mb is %d: want at least 16", in.MemoryMB)
			}
			if in.RestartPolicy != "" {
				c.RestartPolicy = in.RestartPolicy
			}
			if in.MemoryMB != 0 {
				c.MemoryMB = in.MemoryMB
			}
			st.record("update_container", "container "+c.Name)
			return st.containerOut(c), nil
		})
	add(s, st, destructive, "remove_container", "Remove a container",
		"Delete a container for good. A running container is refused unless force is set. Needs confirm: true.",
		nil, func(st *State, in removeContainerIn) (RemovedOut, error) {
			if err := confirmed("remove_container", in.Confirm); err != nil {
				return RemovedOut{}, err
			}
			c, err := st.container(in.ContainerID)
			if err != nil {
				return RemovedOut{}, err
			}
			if c.State == "running" && !in.Force {
				return RemovedOut{}, fmt.Errorf("container %s is running: stop it first, or remove it with force: true", c.Name)
			}
			st.containers = remove(st.containers, c)
			st.record("remove_container", "container "+c.Name)
			return RemovedOut{Removed: c.Name, ID: c.ID}, nil
		})
}

// Volumes.

// VolumeOut is a volume as the tools show it.
type VolumeOut struct {
	ID      string            `json:"id"`
	ShortID string            `json:"short_id"`
	Name    string            `json:"name"`
	Driver  string            `json:"driver"`
	SizeGB  int               `json:"size_gb"`
	Labels  map[string]string `json:"labels"`
	UsedBy  []string          `json:"used_by" jsonschema:"names of the containers that mount it"`
}

func (s *State) volumeOut(v *volume) VolumeOut {
	labels := map[string]string{}
	for k, l := range v.Labels {
		labels[k] = l
	}
	return VolumeOut{ID: v.ID, ShortID: v.ID[:12], Name: v.Name, Driver: v.Driver, SizeGB: v.SizeGB, Labels: labels, UsedBy: s.volumeUsers(v)}
}

type listVolumesIn struct {
	Driver string `json:"driver,omitempty" jsonschema:"only volumes of this driver"`
	Unused bool   `json:"unused,omitempty" jsonschema:"only volumes no container mounts"`
}

// VolumesOut lists volumes.
type VolumesOut struct {
	Volumes []VolumeOut `json:"volumes"`
}

type volumeRef struct {
	VolumeID string `json:"volume_id" jsonschema:"the volume's name, id or short id"`
}

type createVolumeIn struct {
	Name   string            `json:"name" jsonschema:"the new volume's name, unique on the host"`
	Driver string            `json:"driver,omitempty" jsonschema:"local when left out"`
	SizeGB int               `json:"size_gb,omitempty" jsonschema:"capacity in GB, 1 to 1000; 10 when left out"`
	Labels map[string]string `json:"labels,omitempty" jsonschema:"key/value labels"`
}

type removeVolumeIn struct {
	VolumeID string `json:"volume_id" jsonschema:"the volume's name, id or short id"`
	Confirm  bool   `json:"confirm,omitempty" jsonschema:"must be true, or nothing is removed; set it only when the user has clearly asked"`
}

type pruneIn struct {
	Confirm bool `json:"confirm,omitempty" jsonschema:"must be true, or nothing is removed; set it only when the user has clearly asked"`
}

// PruneOut says which volumes a prune removed.
type PruneOut struct {
	Removed []string `json:"removed" jsonschema:"names of the volumes removed"`
	FreedGB int      `json:"freed_gb"`
}

var volumeDrivers = []any{"local", "nfs"}

func addVolumeTools(s *mcp.Server, st *State) {
	add(s, st, read, "list_volumes", "List volumes",
		"List the host's volumes with their driver, size, labels and the containers that mount them.",
		map[string][]any{"driver": volumeDrivers},
		func(st *State, in listVolumesIn) (VolumesOut, error) {
			out := VolumesOut{Volumes: []VolumeOut{}}
			for _, v := range st.volumes {
				if (in.Driver == "" || v.Driver == in.Driver) && (!in.Unused || len(st.volumeUsers(v)) == 0) {
					out.Volumes = append(out.Volumes, st.volumeOut(v))
				}
			}
			return out, nil
		})
	add(s, st, read, "get_volume", "Inspect a volume",
		"Show one volume: driver, size, labels and the containers that mount it.",
		nil, func(st *State, in volumeRef) (VolumeOut, error) {
			v, err := st.volume(in.VolumeID)
			if err != nil {
				return VolumeOut{}, err
			}
			return st.volumeOut(v), nil
		})
	add(s, st, write, "create_volume", "Create a volume",
		"Create an empty volume for containers to mount.",
		map[string][]any{"driver": volumeDrivers},
		func(st *State, in createVolumeIn) (VolumeOut, error) {
			if err := checkName("volume", in.Name); err != nil {
				return VolumeOut{}, err
			}
			if _, err := st.volume(in.Name); err == nil {
				return VolumeOut{}, fmt.Errorf("a volume named %s already exists", in.Name)
			}
			v := &volume{Name: in.Name, Driver: in.Driver, SizeGB: in.SizeGB, Labels: in.Labels}
			if v.Driver == "" {
				v.Driver = "local"
			}
			if v.SizeGB == 0 {
				v.SizeGB = 10
			}
			if v.SizeGB < 1 || v.SizeGB > 1000 {
				return VolumeOut{}, fmt.Errorf("size_gb is %d: want 1 to 1000", v.SizeGB)
			}
			v.ID = st.newID("volume")
			st.volumes = append(st.volumes, v)
			st.record("create_volume", "volume "+v.Name)
			return st.volumeOut(v), nil
		})
	add(s, st, destructive, "remove_volume", "Remove a volume",
		"Delete a volume and all its data. A volume a container mounts is refused: remove the container first. Needs confirm: true.",
		nil, func(st *State, in removeVolumeIn) (RemovedOut, error) {
			if err := confirmed("remove_volume", in.Confirm); err != nil {
				return RemovedOut{}, err
			}
			v, err := st.volume(in.VolumeID)
			if err != nil {
				return RemovedOut{}, err
			}
			if users := st.volumeUsers(v); len(users) > 0 {
				return RemovedOut{}, fmt.Errorf("volume %s is mounted by %s: remove those containers first", v.Name, strings.Join(users, ", "))
			}
			st.volumes = remove(st.volumes, v)
			st.record("remove_volume", "volume "+v.Name)
			return RemovedOut{Removed: v.Name, ID: v.ID}, nil
		})
	add(s, st, destructive, "prune_volumes", "Remove unused volumes",
		"Delete every volume no container mounts, with its data. Needs confirm: true.",
		nil, func(st *State, in pruneIn) (PruneOut, error) {
			if err := confirmed("prune_volumes", in.Confirm); err != nil {
				return PruneOut{}, err
			}
			out := PruneOut{Removed: []string{}}
			for _, v := range slices.Clone(st.volumes) {
				if len(st.volumeUsers(v)) == 0 {
					st.volumes = remove(st.volumes, v)
					out.Removed = append(out.Removed, v.Name)
					out.FreedGB += v.SizeGB
					st.record("prune_volumes", "volume "+v.Name)
				}
			}
			return out, nil
		})
}

// Networks.

// NetworkOut is a network as the tools show it.
type NetworkOut struct {
	ID         string   `json:"id"`
	ShortID    string   `json:"short_id"`
	Name       string   `json:"name"`
	Driver     string   `json:"driver"`
	Subnet     string   `json:"subnet"`
	Containers []string `json:"containers" jsonschema:"names of the containers connected to it"`
}

func (s *State) networkOut(n *network) NetworkOut {
	return NetworkOut{ID: n.ID, ShortID: n.ID[:12], Name: n.Name, Driver: n.Driver, Subnet: n.Subnet, Containers: s.networkMembers(n)}
}

// NetworksOut lists networks.
type NetworksOut struct {
	Networks []NetworkOut `json:"networks"`
}

type noInput struct{}

type createNetworkIn struct {
	Name   string `json:"name" jsonschema:"the new network's name, unique on the host"`
	Driver string `json:"driver,omitempty" jsonschema:"bridge when left out"`
	Subnet string `json:"subnet,omitempty" jsonschema:"an IPv4 CIDR range such as 10.30.0.0/24; one is picked when left out"`
}

type connectIn struct {
	NetworkID   string `json:"network_id" jsonschema:"the network's name, id or short id"`
	ContainerID string `json:"container_id" jsonschema:"the container's name, id or short id"`
}

type removeNetworkIn struct {
	NetworkID string `json:"network_id" jsonschema:"the network's name, id or short id"`
	Confirm   bool   `json:"confirm,omitempty" jsonschema:"must be true, or nothing is removed; set it only when the user has clearly asked"`
}

func addNetworkTools(s *mcp.Server, st *State) {
	add(s, st, read, "list_networks", "List networks",
		"List the host's networks with their driver, subnet and connected containers.",
		nil, func(st *State, _ noInput) (NetworksOut, error) {
			out := NetworksOut{Networks: []NetworkOut{}}
			for _, n := range st.networks {
				out.Networks = append(out.Networks, st.networkOut(n))
			}
			return out, nil
		})
	add(s, st, write, "create_network", "Create a network",
		"Create a network containers can be connected to.",
		map[string][]any{"driver": {"bridge", "overlay"}},
		func(st *State, in createNetworkIn) (NetworkOut, error) {
			if err := checkName("network", in.Name); err != nil {
				return NetworkOut{}, err
			}
			if _, err := st.network(in.Name); err == nil {
				return NetworkOut{}, fmt.Errorf("a network named %s already exists", in.Name)
			}
			n := &network{Name: in.Name, Driver: in.Driver, Subnet: in.Subnet}
			if n.Driver == "" {
				n.Driver = "bridge"
			}
			if n.Subnet == "" {
				n.Subnet = fmt.Sprintf("10.%d.0.0/24", 30+len(st.networks))
			} else if p, err := netip.ParsePrefix(n.Subnet); err != nil || !p.Addr().Is4() {
				return NetworkOut{}, fmt.Errorf("subnet %q: want an IPv4 CIDR range such as 10.30.0.0/24", n.Subnet)
			}
			n.ID = st.newID("network")
			st.networks = append(st.networks, n)
			st.record("create_network", "network "+n.Name)
			return st.networkOut(n), nil
		})
	add(s, st, write, "connect_network", "Connect a container to a network",
		"Connect a container to a network. Connecting it again changes nothing.",
		nil, func(st *State, in connectIn) (NetworkOut, error) {
			n, err := st.network(in.NetworkID)
			if err != nil {
				return NetworkOut{}, err
			}
			c, err := st.container(in.ContainerID)
			if err != nil {
				return NetworkOut{}, err
			}
			if !slices.Contains(c.NetworkIDs, n.ID) {
				c.NetworkIDs = append(c.NetworkIDs, n.ID)
				st.record("connect_network", "container "+c.Name+" to network "+n.Name)
			}
			return st.networkOut(n), nil
		})
	add(s, st, write, "disconnect_network", "Disconnect a container from a network",
		"Disconnect a container from a network.",
		nil, func(st *State, in connectIn) (NetworkOut, error) {
			n, err := st.network(in.NetworkID)
			if err != nil {
				return NetworkOut{}, err
			}
			c, err := st.container(in.ContainerID)
			if err != nil {
				return NetworkOut{}, err
			}
			if !slices.Contains(c.NetworkIDs, n.ID) {
				return NetworkOut{}, fmt.Errorf("container %s is not connected to network %s", c.Name, n.Name)
			}
			c.NetworkIDs = slices.DeleteFunc(c.NetworkIDs, func(id string) bool { return id == n.ID })
			st.record("disconnect_network", "container "+c.Name+" from network "+n.Name)
			return st.networkOut(n), nil
		})
	add(s, st, destructive, "remove_network", "Remove a network",
		"Delete a network. A network with containers connected is refused: disconnect them first. Needs confirm: true.",
		nil, func(st *State, in removeNetworkIn) (RemovedOut, error) {
			if err := confirmed("remove_network", in.Confirm); err != nil {
				return RemovedOut{}, err
			}
			n, err := st.network(in.NetworkID)
			if err != nil {
				return RemovedOut{}, err
			}
			if m := st.networkMembers(n); len(m) > 0 {
				return RemovedOut{}, fmt.Errorf("network %s still has %s connected: disconnect them first", n.Name, strings.Join(m, ", "))
			}
			st.networks = remove(st.networks, n)
			st.record("remove_network", "network "+n.Name)
			return RemovedOut{Removed: n.Name, ID: n.ID}, nil
		})
}

// Projects.

// ProjectOut is a project as the tools show it.
type ProjectOut struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Containers  []string `json:"containers" jsonschema:"names of its containers"`
}

func (s *State) projectOut(p *project) ProjectOut {
	return ProjectOut{ID: p.ID, Name: p.Name, Description: p.Description, Containers: s.projectContainers(p)}
}

// ProjectsOut lists projects.
type ProjectsOut struct {
	Projects []ProjectOut `json:"projects"`
}

type projectRef struct {
	ProjectID string `json:"project_id" jsonschema:"the project's id (prj_...), from list_projects"`
}

type createProjectIn struct {
	Name        string `json:"name" jsonschema:"the new project's name, unique on the host"`
	Description string `json:"description,omitempty" jsonschema:"what the project is for"`
}

type updateProjectIn struct {
	ProjectID   string `json:"project_id" jsonschema:"the project's id (prj_...), from list_projects"`
	Name        string `json:"name,omitempty" jsonschema:"a new name"`
	Description string `json:"description,omitempty" jsonschema:"a new description"`
}

type deleteProjectIn struct {
	ProjectID        string `json:"project_id" jsonschema:"the project's id (prj_...), from list_projects"`
	RemoveContainers bool   `json:"remove_containers,omitempty" jsonschema:"remove its containers too; without it a project that has containers is refused"`
	Confirm          bool   `json:"confirm,omitempty" jsonschema:"must be true, or nothing is removed; set it only when the user has clearly asked"`
}

func addProjectTools(s *mcp.Server, st *State) {
	add(s, st, read, "list_projects", "List projects",
		"List the projects (named groups of containers) with their ids, descriptions and containers.",
		nil, func(st *State, _ noInput) (ProjectsOut, error) {
			out := ProjectsOut{Projects: []ProjectOut{}}
			for _, p := range st.projects {
				out.Projects = append(out.Projects, st.projectOut(p))
			}
			return out, nil
		})
	add(s, st, read, "get_project", "Inspect a project",
		"Show one project by id: name, description and containers.",
		nil, func(st *State, in projectRef) (ProjectOut, error) {
			p, err := st.project(in.ProjectID)
			if err != nil {
				return ProjectOut{}, err
			}
			return st.projectOut(p), nil
		})
	add(s, st, write, "create_project", "Create a project",
		"Create an empty project; containers join it when created with its project_id.",
		nil, func(st *State, in createProjectIn) (ProjectOut, error) {
			if err := checkName("project", in.Name); err != nil {
				return ProjectOut{}, err
			}
			if st.projectByName(in.Name) != nil {
				return ProjectOut{}, fmt.Errorf("a project named %s already exists", in.Name)
			}
			p := &project{ID: "prj_" + st.newID("project")[:8], Name: in.Name, Description: in.Description}
			st.projects = append(st.projects, p)
			st.record("create_project", "project "+p.Name)
			return st.projectOut(p), nil
		})
	add(s, st, write, "update_project", "Update a project",
		"Rename a project or change its description. Give at least one of them.",
		nil, func(st *State, in updateProjectIn) (ProjectOut, error) {
			p, err := st.project(in.ProjectID)
			if err != nil {
				return ProjectOut{}, err
			}
			if in.Name == "" && in.Description == "" {
				return ProjectOut{}, fmt.Errorf("nothing to change: give name or description")
			}
			if in.Name != "" {
				if err := checkName("project", in.Name); err != nil {
					return ProjectOut{}, err
				}
				if o := st.projectByName(in.Name); o != nil && o != p {
					return ProjectOut{}, fmt.Errorf("a project named %s already exists", in.Name)
				}
				p.Name = in.Name
			}
			if in.Description != "" {
				p.Description = in.Description
			}
			st.record("update_project", "project "+p.Name)
			return st.projectOut(p), nil
		})
	add(s, st, destructive, "delete_project", "Delete a project",
		"Delete a project. One that still has containers is refused unless remove_containers is set, which removes them too. Needs confirm: true.",
		nil, func(st *State, in deleteProjectIn) (RemovedOut, error) {
			if err := confirmed("delete_project", in.Confirm); err != nil {
				return RemovedOut{}, err
			}
			p, err := st.project(in.ProjectID)
			if err != nil {
				return RemovedOut{}, err
			}
			if cs := st.projectContainers(p); len(cs) > 0 {
				if !in.RemoveContainers {
					return RemovedOut{}, fmt.Errorf("project %s still has containers %s: remove them first, or delete it with remove_containers: true", p.Name, strings.Join(cs, ", "))
				}
				st.containers = slices.DeleteFunc(st.containers, func(c *container) bool { return c.ProjectID == p.ID })
			}
			st.projects = remove(st.projects, p)
			st.record("delete_project", "project "+p.Name)
			return RemovedOut{Removed: p.Name, ID: p.ID}, nil
		})
}

// Users.

// UserOut is a user as the tools show it.
type UserOut struct {
	ID          string `json:"id"`
	Username    string `json:"username"`
	Email       string `json:"email"`
	DisplayName string `json:"display_name"`
	Role        string `json:"role"`
	Status      string `json:"status"`
}

func userOut(u *user) UserOut {
	return UserOut{ID: u.ID, Username: u.Username, Email: u.Email, DisplayName: u.DisplayName, Role: u.Role, Status: u.Status}
}

// UsersOut lists users.
type UsersOut struct {
	Users []UserOut `json:"users"`
}

type listUsersIn struct {
	Role   string `json:"role,omitempty" jsonschema:"only users with this role"`
	Status string `json:"status,omitempty" jsonschema:"only users in this status"`
}

type userRef struct {
	UserID string `json:"user_id" jsonschema:"the user's id (usr_...), from list_users"`
}

type createUserIn struct {
	Username    string `json:"username" jsonschema:"the login name, unique on the host"`
	Email       string `json:"email"`
	DisplayName string `json:"display_name" jsonschema:"the name shown to other users"`
	Role        string `json:"role" jsonschema:"viewer reads, operator also starts and stops, admin does everything"`
}

type setRoleIn struct {
	UserID string `json:"user_id" jsonschema:"the user's id (usr_...), from list_users"`
	Role   string `json:"role"`
}

type setStatusIn struct {
	UserID string `json:"user_id" jsonschema:"the user's id (usr_...), from list_users"`
	Status string `json:"status" jsonschema:"disabled users cannot log in"`
}

type deleteUserIn struct {
	UserID  string `json:"user_id" jsonschema:"the user's id (usr_...), from list_users"`
	Confirm bool   `json:"confirm,omitempty" jsonschema:"must be true, or nothing is removed; set it only when the user has clearly asked"`
}

var (
	roles    = []any{"viewer", "operator", "admin"}
	statuses = []any{"active", "disabled"}
	emailRE  = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
)

func addUserTools(s *mcp.Server, st *State) {
	add(s, st, read, "list_users", "List users",
		"List the people who may log in to the host, with their ids, roles and status.",
		map[string][]any{"role": roles, "status": statuses},
		func(st *State, in listUsersIn) (UsersOut, error) {
			out := UsersOut{Users: []UserOut{}}
			for _, u := range st.users {
				if (in.Role == "" || u.Role == in.Role) && (in.Status == "" || u.Status == in.Status) {
					out.Users = append(out.Users, userOut(u))
				}
			}
			return out, nil
		})
	add(s, st, read, "get_user", "Inspect a user",
		"Show one user by id.",
		nil, func(st *State, in userRef) (UserOut, error) {
			u, err := st.user(in.UserID)
			if err != nil {
				return UserOut{}, err
			}
			return userOut(u), nil
		})
	add(s, st, write, "create_user", "Create a user",
		"Give someone a login on the host, with a role. The account starts active.",
		map[string][]any{"role": roles},
		func(st *State, in createUserIn) (UserOut, error) {
			if err := checkName("user", in.Username); err != nil {
				return UserOut{}, err
			}
			if !emailRE.MatchString(in.Email) {
				return UserOut{}, fmt.Errorf("email %q: want an address such as name@example.com", in.Email)
			}
			for _, u := range st.users {
				if u.Username == in.Username {
					return UserOut{}, fmt.Errorf("a user named %s already exists", in.Username)
				}
			}
			u := &user{ID: "usr_" + st.newID("user")[:8], Username: in.Username, Email: in.Email, DisplayName: in.DisplayName, Role: in.Role, Status: "active"}
			st.users = append(st.users, u)
			st.record("create_user", "user "+u.Username)
			return userOut(u), nil
		})
	add(s, st, write, "set_user_role", "Change a user's role",
		"Give a user another role.",
		map[string][]any{"role": roles},
		func(st *State, in setRoleIn) (UserOut, error) {
			u, err := st.user(in.UserID)
			if err != nil {
				return UserOut{}, err
			}
			u.Role = in.Role
			st.record("set_user_role", "user "+u.Username)
			return userOut(u), nil
		})
	add(s, st, write, "set_user_status", "Enable or disable a user",
		"Disable a user's login, or enable it again. Nothing else about the user changes.",
		map[string][]any{"status": statuses},
		func(st *State, in setStatusIn) (UserOut, error) {
			u, err := st.user(in.UserID)
			if err != nil {
				return UserOut{}, err
			}
			u.Status = in.Status
			st.record("set_user_status", "user "+u.Username)
			return userOut(u), nil
		})
	add(s, st, destructive, "delete_user", "Delete a user",
		"Delete a user for good. The last active admin cannot be deleted. Needs confirm: true.",
		nil, func(st *State, in deleteUserIn) (RemovedOut, error) {
			if err := confirmed("delete_user", in.Confirm); err != nil {
				return RemovedOut{}, err
			}
			u, err := st.user(in.UserID)
			if err != nil {
				return RemovedOut{}, err
			}
			if u.Role == "admin" && u.Status == "active" {
				admins := 0
				for _, o := range st.users {
					if o.Role == "admin" && o.Status == "active" {
						admins++
					}
				}
				if admins == 1 {
					return RemovedOut{}, fmt.Errorf("%s is the last active admin and cannot be deleted", u.Username)
				}
			}
			st.users = remove(st.users, u)
			st.record("delete_user", "user "+u.Username)
			return RemovedOut{Removed: u.Username, ID: u.ID}, nil
		})
}

// Images.

// ImageOut is an image as the tools show it.
type ImageOut struct {
	ID      string   `json:"id"`
	ShortID string   `json:"short_id"`
	Ref     string   `json:"ref" jsonschema:"the image reference, name:tag"`
	SizeMB  int      `json:"size_mb"`
	UsedBy  []string `json:"used_by" jsonschema:"names of the containers made from it"`
}

func (s *State) imageOut(i *image) ImageOut {
	return ImageOut{ID: i.ID, ShortID: i.ID[:12], Ref: i.Ref, SizeMB: i.SizeMB, UsedBy: s.imageUsers(i)}
}

// ImagesOut lists images.
type ImagesOut struct {
	Images []ImageOut `json:"images"`
}

type pullIn struct {
	Ref string `json:"ref" jsonschema:"the image reference, name:tag (e.g. redis:7.4)"`
}

type removeImageIn struct {
	ImageID string `json:"image_id" jsonschema:"the image's reference (name:tag), id or short id"`
	Confirm bool   `json:"confirm,omitempty" jsonschema:"must be true, or nothing is removed; set it only when the user has clearly asked"`
}

var refRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._/-]*:[A-Za-z0-9._-]+$`)

func addImageTools(s *mcp.Server, st *State) {
	add(s, st, read, "list_images", "List images",
		"List the images on the host with their size and the containers made from them.",
		nil, func(st *State, _ noInput) (ImagesOut, error) {
			out := ImagesOut{Images: []ImageOut{}}
			for _, i := range st.images {
				out.Images = append(out.Images, st.imageOut(i))
			}
			return out, nil
		})
	add(s, st, write, "pull_image", "Pull an image",
		"Download an image from the registry onto the host, so containers can be created from it. Pulling an image already on the host changes nothing.",
		nil, func(st *State, in pullIn) (ImageOut, error) {
			if !refRE.MatchString(in.Ref) {
				return ImageOut{}, fmt.Errorf("image reference %q: want name:tag, such as redis:7.4", in.Ref)
			}
			if i := st.imageByRef(in.Ref); i != nil {
				return st.imageOut(i), nil
			}
			i := &image{ID: st.newID("image"), Ref: in.Ref, SizeMB: 20 + len(in.Ref)*7}
			st.images = append(st.images, i)
			st.record("pull_image", "image "+i.Ref)
			return st.imageOut(i), nil
		})
	add(s, st, destructive, "remove_image", "Remove an image",
		"Delete an image from the host. An image a container is made from is refused. Needs confirm: true.",
		nil, func(st *State, in removeImageIn) (RemovedOut, error) {
			if err := confirmed("remove_image", in.Confirm); err != nil {
				return RemovedOut{}, err
			}
			i, err := st.image(in.ImageID)
			if err != nil {
				return RemovedOut{}, err
			}
			if u := st.imageUsers(i); len(u) > 0 {
				return RemovedOut{}, fmt.Errorf("image %s is used by %s: remove those containers first", i.Ref, strings.Join(u, ", "))
			}
			st.images = remove(st.images, i)
			st.record("remove_image", "image "+i.Ref)
			return RemovedOut{Removed: i.Ref, ID: i.ID}, nil
		})
}

// System.

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

func addSystemTools(s *mcp.Server, st *State) {
	add(s, st, read, "get_system_info", "Host information",
		"Show the host's name and software version and how many containers (by state), images, volumes, networks, projects and users it has.",
		nil, func(st *State, _ noInput) (SystemOut, error) {
			out := SystemOut{Version: st.version, Host: st.host, Containers: map[string]int{"created": 0, "running": 0, "exited": 0},
				Images: len(st.images), Volumes: len(st.volumes), Networks: len(st.networks), Projects: len(st.projects), Users: len(st.users)}
			for _, c := range st.containers {
				out.Containers[c.State]++
			}
			return out, nil
		})
	add(s, st, read, "list_events", "Recent changes",
		"List the latest changes made on the host (what was created, started, stopped, removed...), newest first.",
		nil, func(st *State, in eventsIn) (EventsOut, error) {
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
		})
}

// New returns a server over a freshly seeded host, as builtin:ops serves
// it on every connection. writable is ignored: every tool is always
// served (see NewServer).
func New(writable bool) (*mcp.Server, error) {
	st, err := Seed()
	if err != nil {
		return nil, err
	}
	return NewServer(st), nil
}
