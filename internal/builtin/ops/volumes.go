package ops

import (
	"fmt"
	"slices"
	"strings"
)

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

// addVolumeTools registers the volume tools.
func addVolumeTools(c *catalog) {
	c.domain("volumes", "volume")
	add(c, read, "list_volumes", "List volumes",
		"List the host's volumes with their driver, size, labels and the containers that mount them.",
		map[string][]any{"driver": volumeDrivers},
		listVolumes)
	add(c, read, "get_volume", "Inspect a volume",
		"Show one volume: driver, size, labels and the containers that mount it.",
		nil, getVolume)
	add(c, write, "create_volume", "Create a volume",
		"Create an empty volume for containers to mount.",
		map[string][]any{"driver": volumeDrivers},
		createVolume)
	add(c, destructive, "remove_volume", "Remove a volume",
		"Delete a volume and all its data. A volume a container mounts is refused: remove the container first. Needs confirm: true.",
		nil, removeVolume)
	add(c, destructive, "prune_volumes", "Remove unused volumes",
		"Delete every volume no container mounts, with its data. Needs confirm: true.",
		nil, pruneVolumes)
}

// listVolumes is the tool list_volumes.
func listVolumes(st *State, in listVolumesIn) (VolumesOut, error) {
	out := VolumesOut{Volumes: []VolumeOut{}}
	for _, v := range st.volumes {
		if (in.Driver == "" || v.Driver == in.Driver) && (!in.Unused || len(st.volumeUsers(v)) == 0) {
			out.Volumes = append(out.Volumes, st.volumeOut(v))
		}
	}
	return out, nil
}

// getVolume is the tool get_volume.
func getVolume(st *State, in volumeRef) (VolumeOut, error) {
	v, err := st.volume(in.VolumeID)
	if err != nil {
		return VolumeOut{}, err
	}
	return st.volumeOut(v), nil
}

// createVolume is the tool create_volume.
func createVolume(st *State, in createVolumeIn) (VolumeOut, error) {
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
}

// removeVolume is the tool remove_volume.
func removeVolume(st *State, in removeVolumeIn) (RemovedOut, error) {
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
}

// pruneVolumes is the tool prune_volumes.
func pruneVolumes(st *State, in pruneIn) (PruneOut, error) {
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
}
