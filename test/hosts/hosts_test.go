package hosts

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// serve answers every connection with its greeting.
func serve(l net.Listener, greeting string) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		fmt.Fprintln(c, greeting)
		_ = c.Close()
	}
}

func greeting(t *testing.T, dial func() (net.Conn, error)) string {
	t.Helper()
	c, err := dial()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(line)
}

// TestHostsAreHostsOfTheirOwn checks what the lab's nodes need of the network: each listens on the same port of its
// own address without a clash, reaches its own listener at localhost, and is reached from the machine; a host
// reaches the machine's address.
func TestHostsAreHostsOfTheirOwn(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("network namespaces need root (CI runs as root)")
	}
	n, err := Create("master-0", "master-1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := n.Delete(); err != nil {
			t.Error(err)
		}
		if _, err := os.Stat(n.Hosts[0].NamespacePath); !os.IsNotExist(err) {
			t.Errorf("namespace %s left behind: %v", n.Hosts[0].Namespace, err)
		}
		if _, err := net.InterfaceByName(n.Bridge); err == nil {
			t.Errorf("bridge %s left behind", n.Bridge)
		}
	})

	// The same port on every host, as every node's kube-apiserver listens on 6443.
	for _, h := range n.Hosts {
		err := h.Do(func() error {
			l, err := net.Listen("tcp", ":6443")
			if err != nil {
				return err
			}
			t.Cleanup(func() { _ = l.Close() })
			go serve(l, h.Name)
			return nil
		})
		if err != nil {
			t.Fatalf("%s: listening on :6443: %v", h.Name, err)
		}
	}
	for _, h := range n.Hosts {
		addr := net.JoinHostPort(h.IP.String(), "6443")
		if got := greeting(t, func() (net.Conn, error) { return net.DialTimeout("tcp", addr, 5*time.Second) }); got != h.Name {
			t.Errorf("the machine dialled %s and reached %q, want %s", addr, got, h.Name)
		}
		var got string
		if err := h.Do(func() error {
			got = greeting(t, func() (net.Conn, error) { return net.DialTimeout("tcp", "localhost:6443", 5*time.Second) })
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if got != h.Name {
			t.Errorf("%s dialled localhost:6443 and reached %q", h.Name, got)
		}
	}

	// The machine's address, where etcd and the load balancer listen, from a host.
	machine, err := net.Listen("tcp", net.JoinHostPort(n.MachineIP.String(), "0"))
	if err != nil {
		t.Fatal(err)
	}
	defer machine.Close()
	go serve(machine, "machine")
	var got string
	if err := n.Hosts[1].Do(func() error {
		got = greeting(t, func() (net.Conn, error) { return net.DialTimeout("tcp", machine.Addr().String(), 5*time.Second) })
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got != "machine" {
		t.Errorf("master-1 dialled the machine and reached %q", got)
	}

	// A process in the host's namespace sees the host's addresses only.
	out, err := n.Hosts[0].Command("ip", "-o", "-4", "addr", "show", "dev", "eth0").CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !strings.Contains(string(out), n.Hosts[0].IP.String()+"/24") {
		t.Errorf("eth0 of master-0: %s, want %s", out, n.Hosts[0].IP)
	}
}

func TestCreateRefuses(t *testing.T) {
	if _, err := Create(); err == nil {
		t.Error("a network of no hosts was created")
	}
}

// TestCreateRemovesWhatDeadProcessesLeft: a lab killed before it deleted its network leaves namespaces behind;
// the next Create deletes those of processes that no longer run.
func TestCreateRemovesWhatDeadProcessesLeft(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("network namespaces need root (CI runs as root)")
	}
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	stale := fmt.Sprintf("%s%d-1-master-0", namespacePrefix, dead.Process.Pid)
	staleBridge := fmt.Sprintf("kg%x-1b", dead.Process.Pid)
	if err := ip("netns", "add", stale); err != nil {
		t.Fatal(err)
	}
	if err := ip("link", "add", staleBridge, "type", "bridge"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = ip("netns", "delete", stale)
		_ = ip("link", "delete", staleBridge)
	})
	n, err := Create("master-0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := n.Delete(); err != nil {
			t.Error(err)
		}
	})
	if _, err := os.Stat("/run/netns/" + stale); !os.IsNotExist(err) {
		t.Errorf("the namespace of dead process %d is still there: %v", dead.Process.Pid, err)
	}
	if _, err := net.InterfaceByName(staleBridge); err == nil {
		t.Errorf("the bridge of dead process %d is still there", dead.Process.Pid)
	}
	if _, err := os.Stat(n.Hosts[0].NamespacePath); err != nil {
		t.Errorf("the new namespace: %v", err)
	}

	// A second network of the same process, while the first exists.
	second, err := Create("master-0")
	if err != nil {
		t.Fatalf("a second network beside the first: %v", err)
	}
	if err := second.Delete(); err != nil {
		t.Error(err)
	}
}
