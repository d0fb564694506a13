package ops

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"go.yaml.in/yaml/v4"
)

//go:embed seed.yaml
var seedYAML []byte

// State is one ops host: what a server serves and its tools change. It is
// safe for concurrent use.
type State struct {
	mu sync.Mutex
	// seq numbers the ids handed out, so that ids are the same on every
	// state seeded alike.
	seq     int
	version string
	host    string

	images     []*image
	networks   []*network
	volumes    []*volume
	projects   []*project
	users      []*user
	containers []*container
	events     []Event
}

type image struct {
	ID, Ref string
	SizeMB  int
}

type network struct {
	ID, Name, Driver, Subnet string
}

type volume struct {
	ID, Name, Driver string
	SizeGB           int
	Labels           map[string]string
}

type project struct {
	ID, Name, Description string
}

type user struct {
	ID, Username, Email, DisplayName, Role, Status string
}

type mount struct {
	VolumeID, Path string
}

type container struct {
	ID, Name, ImageRef, State, ProjectID, RestartPolicy string
	NetworkIDs                                          []string
	Mounts                                              []mount
	MemoryMB                                            int
	Logs                                                []string
}

// Event is one change the host recorded.
type Event struct {
	Seq    int    `json:"seq"`
	Action string `json:"action" jsonschema:"the tool that made the change"`
	Object string `json:"object" jsonschema:"what changed: kind and name"`
}

// seedFile is the shape of seed.yaml.
type seedFile struct {
	Version string `yaml:"version"`
	Host    string `yaml:"host"`
	Images  []struct {
		Ref    string `yaml:"ref"`
		SizeMB int    `yaml:"size_mb"`
	} `yaml:"images"`
	Networks []struct {
		Name   string `yaml:"name"`
		Driver string `yaml:"driver"`
		Subnet string `yaml:"subnet"`
	} `yaml:"networks"`
	Volumes []struct {
		Name   string            `yaml:"name"`
		Driver string            `yaml:"driver"`
		SizeGB int               `yaml:"size_gb"`
		Labels map[string]string `yaml:"labels"`
	} `yaml:"volumes"`
	Projects []struct {
		Name        string `yaml:"name"`
		Description string `yaml:"description"`
	} `yaml:"projects"`
	Users []struct {
		Username    string `yaml:"username"`
		Email       string `yaml:"email"`
		DisplayName string `yaml:"display_name"`
		Role        string `yaml:"role"`
		Status      string `yaml:"status"`
	} `yaml:"users"`
	Containers []struct {
		Name          string   `yaml:"name"`
		Image         string   `yaml:"image"`
		Project       string   `yaml:"project"`
		State         string   `yaml:"state"`
		Networks      []string `yaml:"networks"`
		RestartPolicy string   `yaml:"restart_policy"`
		MemoryMB      int      `yaml:"memory_mb"`
		Mounts        []struct {
			Volume string `yaml:"volume"`
			Path   string `yaml:"path"`
		} `yaml:"mounts"`
		Logs []string `yaml:"logs"`
	} `yaml:"containers"`
}

// Seed returns a fresh state holding the embedded seed data.
func Seed() (*State, error) {
	var f seedFile
	if err := yaml.Load(seedYAML, &f, yaml.WithKnownFields()); err != nil {
		return nil, fmt.Errorf("loading ops seed: %w", err)
	}
	s := &State{version: f.Version, host: f.Host}
	for _, i := range f.Images {
		s.images = append(s.images, &image{ID: s.newID("image"), Ref: i.Ref, SizeMB: i.SizeMB})
	}
	for _, n := range f.Networks {
		s.networks = append(s.networks, &network{ID: s.newID("network"), Name: n.Name, Driver: n.Driver, Subnet: n.Subnet})
	}
	for _, v := range f.Volumes {
		s.volumes = append(s.volumes, &volume{ID: s.newID("volume"), Name: v.Name, Driver: v.Driver, SizeGB: v.SizeGB, Labels: v.Labels})
	}
	for _, p := range f.Projects {
		s.projects = append(s.projects, &project{ID: "prj_" + s.newID("project")[:8], Name: p.Name, Description: p.Description})
	}
	for _, u := range f.Users {
		status := u.Status
		if status == "" {
			status = "active"
		}
		s.users = append(s.users, &user{ID: "usr_" + s.newID("user")[:8], Username: u.Username, Email: u.Email, DisplayName: u.DisplayName, Role: u.Role, Status: status})
	}
	for _, sc := range f.Containers {
		c := &container{ID: s.newID("container"), Name: sc.Name, ImageRef: sc.Image, State: sc.State,
			RestartPolicy: sc.RestartPolicy, MemoryMB: sc.MemoryMB, Logs: sc.Logs}
		if s.imageByRef(sc.Image) == nil {
			return nil, fmt.Errorf("ops seed: container %s: no image %s", sc.Name, sc.Image)
		}
		if sc.Project != "" {
			p := s.projectByName(sc.Project)
			if p == nil {
				return nil, fmt.Errorf("ops seed: container %s: no project %s", sc.Name, sc.Project)
			}
			c.ProjectID = p.ID
		}
		for _, n := range sc.Networks {
			nw, err := s.network(n)
			if err != nil {
				return nil, fmt.Errorf("ops seed: container %s: %w", sc.Name, err)
			}
			c.NetworkIDs = append(c.NetworkIDs, nw.ID)
		}
		for _, m := range sc.Mounts {
			v, err := s.volume(m.Volume)
			if err != nil {
				return nil, fmt.Errorf("ops seed: container %s: %w", sc.Name, err)
			}
			c.Mounts = append(c.Mounts, mount{VolumeID: v.ID, Path: m.Path})
		}
		s.containers = append(s.containers, c)
	}
	return s, nil
}

// newID returns the next id: 64 hex digits, derived from the sequence.
func (s *State) newID(kind string) string {
	s.seq++
	sum := sha256.Sum256(fmt.Appendf(nil, "ops/%s/%d", kind, s.seq))
	return hex.EncodeToString(sum[:])
}

func (s *State) record(action, object string) {
	s.events = append(s.events, Event{Seq: len(s.events) + 1, Action: action, Object: object})
}

// Snapshot returns everything s holds but its event log, as indented JSON
// in a fixed order, for comparing states: two states hold the same things
// exactly when their snapshots are equal. The event log is left out
// because it is an audit trail that nothing ever removes from.
func (s *State) Snapshot() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := json.MarshalIndent(struct {
		Images     []*image
		Networks   []*network
		Volumes    []*volume
		Projects   []*project
		Users      []*user
		Containers []*container
	}{s.images, s.networks, s.volumes, s.projects, s.users, s.containers}, "", "  ")
	if err != nil {
		panic(err) // plain data always encodes
	}
	return string(b)
}

// Lookups. Containers, volumes, networks and images are found by name (or
// reference), full id or short id (the id's first 12 digits); projects and
// users by id only.

func matches(ref, id, name string) bool {
	return ref != "" && (ref == name || ref == id || (len(ref) >= 12 && len(ref) < len(id) && id[:len(ref)] == ref))
}

func (s *State) container(ref string) (*container, error) {
	for _, c := range s.containers {
		if matches(ref, c.ID, c.Name) {
			return c, nil
		}
	}
	return nil, fmt.Errorf("no container %q: give a container's name, id or short id (list_containers lists them)", ref)
}

func (s *State) volume(ref string) (*volume, error) {
	for _, v := range s.volumes {
		if matches(ref, v.ID, v.Name) {
			return v, nil
		}
	}
	return nil, fmt.Errorf("no volume %q: give a volume's name, id or short id (list_volumes lists them)", ref)
}

func (s *State) network(ref string) (*network, error) {
	for _, n := range s.networks {
		if matches(ref, n.ID, n.Name) {
			return n, nil
		}
	}
	return nil, fmt.Errorf("no network %q: give a network's name, id or short id (list_networks lists them)", ref)
}

func (s *State) image(ref string) (*image, error) {
	for _, i := range s.images {
		if matches(ref, i.ID, i.Ref) {
			return i, nil
		}
	}
	return nil, fmt.Errorf("no image %q on this host: give an image's reference (name:tag) or id (list_images lists them)", ref)
}

func (s *State) imageByRef(ref string) *image {
	for _, i := range s.images {
		if i.Ref == ref {
			return i
		}
	}
	return nil
}

func (s *State) project(id string) (*project, error) {
	for _, p := range s.projects {
		if p.ID == id {
			return p, nil
		}
	}
	return nil, fmt.Errorf("no project with id %q: project ids look like prj_1a2b3c4d (list_projects lists them)", id)
}

func (s *State) projectByName(name string) *project {
	for _, p := range s.projects {
		if p.Name == name {
			return p
		}
	}
	return nil
}

func (s *State) user(id string) (*user, error) {
	for _, u := range s.users {
		if u.ID == id {
			return u, nil
		}
	}
	return nil, fmt.Errorf("no user with id %q: user ids look like usr_1a2b3c4d (list_users lists them)", id)
}

func (s *State) volumeUsers(v *volume) []string {
	names := []string{}
	for _, c := range s.containers {
		for _, m := range c.Mounts {
			if m.VolumeID == v.ID {
				names = append(names, c.Name)
			}
		}
	}
	return names
}

func (s *State) networkMembers(n *network) []string {
	names := []string{}
	for _, c := range s.containers {
		if slices.Contains(c.NetworkIDs, n.ID) {
			names = append(names, c.Name)
		}
	}
	return names
}

func (s *State) imageUsers(i *image) []string {
	names := []string{}
	for _, c := range s.containers {
		if c.ImageRef == i.Ref {
			names = append(names, c.Name)
		}
	}
	return names
}

func (s *State) projectContainers(p *project) []string {
	names := []string{}
	for _, c := range s.containers {
		if c.ProjectID == p.ID {
			names = append(names, c.Name)
		}
	}
	return names
}

func remove[T any](l []*T, x *T) []*T {
	return slices.DeleteFunc(l, func(e *T) bool { return e == x })
}
