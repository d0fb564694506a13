package ops

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
)

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

// addNetworkTools registers the network tools.
func addNetworkTools(c *catalog) {
	c.domain("networks", "network")
	add(c, read, "list_networks", "List networks",
		"List the host's networks with their driver, subnet and connected containers.",
		nil, listNetworks)
	add(c, write, "create_network", "Create a network",
		"Create a network containers can be connected to.",
		map[string][]any{"driver": {"bridge", "overlay"}},
		createNetwork)
	add(c, write, "connect_network", "Connect a container to a network",
		"Connect a container to a network. Connecting it again changes nothing.",
		nil, connectNetwork)
	add(c, write, "disconnect_network", "Disconnect a container from a network",
		"Disconnect a container from a network.",
		nil, disconnectNetwork)
	add(c, destructive, "remove_network", "Remove a network",
		"Delete a network. A network with containers connected is refused: disconnect them first. Needs confirm: true.",
		nil, removeNetwork)
}

// listNetworks is the tool list_networks.
func listNetworks(st *State, _ noInput) (NetworksOut, error) {
	out := NetworksOut{Networks: []NetworkOut{}}
	for _, n := range st.networks {
		out.Networks = append(out.Networks, st.networkOut(n))
	}
	return out, nil
}

// createNetwork is the tool create_network.
func createNetwork(st *State, in createNetworkIn) (NetworkOut, error) {
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
}

// connection finds the network and the container that connect_network and
// disconnect_network name.
func (st *State) connection(in connectIn) (*network, *container, error) {
	n, err := st.network(in.NetworkID)
	if err != nil {
		return nil, nil, err
	}
	c, err := st.container(in.ContainerID)
	if err != nil {
		return nil, nil, err
	}
	return n, c, nil
}

// connectNetwork is the tool connect_network.
func connectNetwork(st *State, in connectIn) (NetworkOut, error) {
	n, c, err := st.connection(in)
	if err != nil {
		return NetworkOut{}, err
	}
	if !slices.Contains(c.NetworkIDs, n.ID) {
		c.NetworkIDs = append(c.NetworkIDs, n.ID)
		st.record("connect_network", "container "+c.Name+" to network "+n.Name)
	}
	return st.networkOut(n), nil
}

// disconnectNetwork is the tool disconnect_network.
func disconnectNetwork(st *State, in connectIn) (NetworkOut, error) {
	n, c, err := st.connection(in)
	if err != nil {
		return NetworkOut{}, err
	}
	if !slices.Contains(c.NetworkIDs, n.ID) {
		return NetworkOut{}, fmt.Errorf("container %s is not connected to network %s", c.Name, n.Name)
	}
	c.NetworkIDs = slices.DeleteFunc(c.NetworkIDs, func(id string) bool { return id == n.ID })
	st.record("disconnect_network", "container "+c.Name+" from network "+n.Name)
	return st.networkOut(n), nil
}

// removeNetwork is the tool remove_network.
func removeNetwork(st *State, in removeNetworkIn) (RemovedOut, error) {
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
}
