package kmsenv

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// PID returns the process id of the running kube-apiserver, for a caller that reads its /proc entries (the
// migration benchmark reads its resident memory). envtest keeps the process to itself, so it is found in /proc
// by its --cert-dir, which is this apiserver's own. Linux only.
func (a *APIServer) PID() (int, error) {
	a.mu.Lock()
	server := a.server
	a.mu.Unlock()
	if server == nil {
		return 0, fmt.Errorf("kube-apiserver-%d is not running", a.index)
	}
	want := "--cert-dir=" + filepath.Join(a.dir, "certs")
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue // exited, or not ours to read
		}
		args := strings.Split(string(bytes.TrimRight(cmdline, "\x00")), "\x00")
		if filepath.Base(args[0]) != "kube-apiserver" {
			continue
		}
		for _, arg := range args[1:] {
			if arg == want {
				return pid, nil
			}
		}
	}
	return 0, errors.New("no kube-apiserver process with " + want)
}

// ProcessRSS returns the resident set size of process pid in bytes (VmRSS of /proc/<pid>/status).
func ProcessRSS(pid int) (uint64, error) {
	status, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(status), "\n") {
		rest, ok := strings.CutPrefix(line, "VmRSS:")
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) != 2 || fields[1] != "kB" {
			return 0, fmt.Errorf("unexpected VmRSS line %q", line)
		}
		kb, err := strconv.ParseUint(fields[0], 10, 64)
		if err != nil {
			return 0, err
		}
		return kb << 10, nil
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}
