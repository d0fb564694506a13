package ops

import (
	"fmt"
	"strings"
)

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

// addContainerTools registers the container tools.
func addContainerTools(c *catalog) {
	c.domain("containers", "container")
	add(c, read, "list_containers", "List containers",
		"List the host's containers, running or not, with their state, image, project, networks and mounts. Filters narrow the list; with none, every container is listed.",
		map[string][]any{"state": {"created", "running", "exited"}},
		listContainers)
	add(c, read, "get_container", "Inspect a container",
		"Show one container: its state, image, project, networks, mounted volumes, restart policy and memory limit.",
		nil, getContainer)
	add(c, read, "get_container_logs", "Container logs",
		"Return a container's latest log lines, oldest first.",
		nil, getContainerLogs)
	add(c, write, "create_container", "Create a container",
		"Create a container from an image already on the host. It is created stopped (state created): start it with start_container. Optionally put it in a project, connect it to a network and mount volumes.",
		map[string][]any{"restart_policy": restartPolicies},
		createContainer)
	add(c, write, "start_container", "Start a container",
		"Start a created or exited container. Starting a running container changes nothing.",
		nil, startContainer)
	add(c, write, "stop_container", "Stop a container",
		"Stop a running container (it exits and keeps its data). Stopping a stopped container changes nothing.",
		nil, stopContainer)
	add(c, write, "restart_container", "Restart a container",
		"Stop a container if it is running, then start it again.",
		nil, restartContainer)
	add(c, write, "rename_container", "Rename a container",
		"Give a container another name; its id stays the same.",
		nil, renameContainer)
	add(c, write, "update_container", "Update a container's settings",
		"Change a container's restart policy or memory limit without recreating it. Give at least one of them.",
		map[string][]any{"restart_policy": restartPolicies},
		updateContainer)
	add(c, destructive, "remove_container", "Remove a container",
		"Delete a container for good. A running container is refused unless force is set. Needs confirm: true.",
		nil, removeContainer)
}

// listContainers is the tool list_containers.
func listContainers(st *State, in listContainersIn) (ContainersOut, error) {
	out := ContainersOut{Containers: []ContainerOut{}}
	for _, c := range st.containers {
		if (in.State == "" || c.State == in.State) && (in.ProjectID == "" || c.ProjectID == in.ProjectID) && (in.Image == "" || c.ImageRef == in.Image) {
			out.Containers = append(out.Containers, st.containerOut(c))
		}
	}
	return out, nil
}

// getContainer is the tool get_container.
func getContainer(st *State, in containerRef) (ContainerOut, error) {
	c, err := st.container(in.ContainerID)
	if err != nil {
		return ContainerOut{}, err
	}
	return st.containerOut(c), nil
}

// getContainerLogs is the tool get_container_logs.
func getContainerLogs(st *State, in logsIn) (LogsOut, error) {
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
}

// createContainer is the tool create_container.
func createContainer(st *State, in createContainerIn) (ContainerOut, error) {
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
}

// startContainer is the tool start_container.
func startContainer(st *State, in containerRef) (ContainerOut, error) {
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
}

// stopContainer is the tool stop_container.
func stopContainer(st *State, in stopIn) (ContainerOut, error) {
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
}

// restartContainer is the tool restart_container.
func restartContainer(st *State, in containerRef) (ContainerOut, error) {
	c, err := st.container(in.ContainerID)
	if err != nil {
		return ContainerOut{}, err
	}
	c.State = "running"
	c.Logs = append(c.Logs, "restarted")
	st.record("restart_container", "container "+c.Name)
	return st.containerOut(c), nil
}

// renameContainer is the tool rename_container.
func renameContainer(st *State, in renameIn) (ContainerOut, error) {
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
}

// updateContainer is the tool update_container.
func updateContainer(st *State, in updateContainerIn) (ContainerOut, error) {
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
}

// removeContainer is the tool remove_container.
func removeContainer(st *State, in removeContainerIn) (RemovedOut, error) {
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
}
