// Package hosts makes the lab's control-plane nodes hosts of their own on one machine: each node is a network
// namespace with its own loopback and an address on a bridge that the machine shares with every node. A node's
// kube-apiserver then listens on <node IP>:6443 and its containers reach it at localhost:6443, as on a cluster,
// while three nodes run on one machine; the machine itself (etcd, the load balancer, the tests) is the bridge's
// address.
//
// The addresses are in 198.18.0.0/15, which RFC 2544 reserves for testing network equipment: the bridge has no
// uplink, and nothing leaves the machine. It needs root and iproute2's ip, as CI and the developers' machines have.
package hosts

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// Network is a bridge on the machine with the hosts' network namespaces attached to it.
type Network struct {
	// Bridge is the bridge's interface name.
	Bridge string
	// MachineIP is the machine's address on the network: the bridge's, the hosts' default gateway.
	MachineIP net.IP
	// Hosts are the hosts, in the order Create named them.
	Hosts []*Host
	tag   string
}

// Host is a host of the network: a network namespace.
type Host struct {
	Name string
	// IP is the host's address on the network.
	IP net.IP
	// Namespace is the network namespace's name (ip netns), NamespacePath its file, which nsenter --net takes.
	Namespace, NamespacePath string
	veth                     string
}

// namespacePrefix starts the name of every network namespace this package makes: kmsguard-<pid>-<sequence>-<host>.
const namespacePrefix = "kmsguard-"

// networks counts the networks this process made.
var networks atomic.Int64

// Create makes a network of the named hosts. What it made is deleted by Delete; what a process that died left behind
// (its pid no longer runs) is deleted by the next Create.
func Create(names ...string) (_ *Network, err error) {
	if len(names) == 0 || len(names) > 20 {
		return nil, fmt.Errorf("hosts: %d hosts (1 to 20)", len(names))
	}
	if os.Geteuid() != 0 {
		return nil, errors.New("hosts: network namespaces need root")
	}
	removeStale()
	subnet, err := freeSubnet()
	if err != nil {
		return nil, err
	}
	// Names are unique to this process and this network: a process (a test binary) may make one network after
	// another. Interface names are at most 15 bytes: kg<pid in hex>-<sequence>b for the bridge, v<index> and
	// v<index>p for the two ends of a host's veth.
	seq := networks.Add(1) % 100
	tag := fmt.Sprintf("%x-%d", os.Getpid(), seq)
	n := &Network{Bridge: "kg" + tag + "b", MachineIP: net.IPv4(198, 18, subnet, 1).To4(), tag: tag}
	defer func() {
		if err != nil {
			_ = n.Delete()
		}
	}()
	if err := ip("link", "add", n.Bridge, "type", "bridge"); err != nil {
		return nil, err
	}
	if err := ip("addr", "add", n.MachineIP.String()+"/24", "dev", n.Bridge); err != nil {
		return nil, err
	}
	if err := ip("link", "set", n.Bridge, "up"); err != nil {
		return nil, err
	}
	for i, name := range names {
		h := &Host{
			Name:      name,
			IP:        net.IPv4(198, 18, subnet, byte(10+i)).To4(),
			Namespace: fmt.Sprintf("%s%d-%d-%s", namespacePrefix, os.Getpid(), seq, name),
			veth:      fmt.Sprintf("kg%sv%d", tag, i),
		}
		h.NamespacePath = filepath.Join("/run/netns", h.Namespace)
		n.Hosts = append(n.Hosts, h)
		peer := h.veth + "p"
		for _, args := range [][]string{
			{"netns", "add", h.Namespace},
			{"link", "add", h.veth, "type", "veth", "peer", "name", peer},
			{"link", "set", h.veth, "master", n.Bridge},
			{"link", "set", h.veth, "up"},
			{"link", "set", peer, "netns", h.Namespace},
			{"-n", h.Namespace, "link", "set", peer, "name", "eth0"},
			{"-n", h.Namespace, "addr", "add", h.IP.String() + "/24", "dev", "eth0"},
			{"-n", h.Namespace, "link", "set", "eth0", "up"},
			{"-n", h.Namespace, "link", "set", "lo", "up"},
			{"-n", h.Namespace, "route", "add", "default", "via", n.MachineIP.String()},
		} {
			if err := ip(args...); err != nil {
				return nil, fmt.Errorf("host %s: %w", name, err)
			}
		}
	}
	return n, nil
}

// Delete deletes the hosts' namespaces (which deletes their veths) and the bridge.
func (n *Network) Delete() error {
	var errs []error
	for _, h := range n.Hosts {
		if _, err := os.Stat(h.NamespacePath); err == nil {
			errs = append(errs, ip("netns", "delete", h.Namespace))
		}
	}
	if _, err := net.InterfaceByName(n.Bridge); err == nil {
		errs = append(errs, ip("link", "delete", n.Bridge))
	}
	return errors.Join(errs...)
}

// Host returns the host of that name, nil when there is none.
func (n *Network) Host(name string) *Host {
	for _, h := range n.Hosts {
		if h.Name == name {
			return h
		}
	}
	return nil
}

// Command is name with args run in the host's network namespace (nsenter --net).
func (h *Host) Command(name string, args ...string) *exec.Cmd {
	return exec.Command("nsenter", append([]string{"--net=" + h.NamespacePath, "--", name}, args...)...)
}

// Do runs fn on an OS thread of its own inside the host's network namespace: a socket fn opens (a listener, a
// connection) belongs to the host's network for its whole life. Goroutines fn starts run outside it.
func (h *Host) Do(fn func() error) error {
	errc := make(chan error, 1)
	go func() {
		// The thread stays locked, and so is discarded when this goroutine ends, unless it is back in the
		// machine's namespace.
		runtime.LockOSThread()
		errc <- h.do(fn)
	}()
	return <-errc
}

func (h *Host) do(fn func() error) error {
	machine, err := os.Open("/proc/thread-self/ns/net")
	if err != nil {
		return err
	}
	defer machine.Close()
	host, err := os.Open(h.NamespacePath)
	if err != nil {
		return err
	}
	defer host.Close()
	if err := unix.Setns(int(host.Fd()), unix.CLONE_NEWNET); err != nil {
		return fmt.Errorf("entering %s: %w", h.Namespace, err)
	}
	fnErr := fn()
	if err := unix.Setns(int(machine.Fd()), unix.CLONE_NEWNET); err != nil {
		return errors.Join(fnErr, fmt.Errorf("leaving %s: %w", h.Namespace, err))
	}
	runtime.UnlockOSThread()
	return fnErr
}

// freeSubnet is a third octet of 198.18.x.0/24 that no address of the machine is in.
func freeSubnet() (byte, error) {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return 0, err
	}
	used := map[byte]bool{}
	for _, a := range addrs {
		if ipnet, ok := a.(*net.IPNet); ok {
			if v4 := ipnet.IP.To4(); v4 != nil && v4[0] == 198 && v4[1] == 18 {
				used[v4[2]] = true
			}
		}
	}
	for s := 1; s < 255; s++ {
		if !used[byte(s)] {
			return byte(s), nil
		}
	}
	return 0, errors.New("hosts: every subnet of 198.18.0.0/16 is in use")
}

// removeStale deletes the namespaces and bridges of processes that no longer run.
func removeStale() {
	entries, _ := os.ReadDir("/run/netns")
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), namespacePrefix)
		if !ok {
			continue
		}
		pid, err := strconv.Atoi(strings.SplitN(rest, "-", 2)[0])
		if err != nil || alive(pid) {
			continue
		}
		_ = ip("netns", "delete", e.Name())
	}
	// A bridge whose process is gone, and whose namespaces (and so veths) went with it or above.
	links, _ := net.Interfaces()
	for _, l := range links {
		rest, ok := strings.CutPrefix(l.Name, "kg")
		if !ok || !strings.HasSuffix(l.Name, "b") || !strings.Contains(rest, "-") {
			continue
		}
		pid, err := strconv.ParseInt(strings.SplitN(rest, "-", 2)[0], 16, 64)
		if err != nil || alive(int(pid)) {
			continue
		}
		_ = ip("link", "delete", l.Name)
	}
}

func alive(pid int) bool {
	return unix.Kill(pid, 0) == nil
}

func ip(args ...string) error {
	out, err := exec.Command("ip", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("ip %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}
