package kmsenv

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
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
	return findProcess("kube-apiserver", "--cert-dir="+filepath.Join(a.dir, "certs"))
}

// EtcdPID returns the process id of the running etcd, found in /proc by its --data-dir. Linux only.
func (cp *ControlPlane) EtcdPID() (int, error) {
	return findProcess("etcd", "--data-dir="+cp.etcd.DataDir)
}

// findProcess returns the process whose executable is named name and that has arg among its arguments.
func findProcess(name, arg string) (int, error) {
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
		if filepath.Base(args[0]) != name {
			continue
		}
		for _, a := range args[1:] {
			if a == arg {
				return pid, nil
			}
		}
	}
	return 0, errors.New("no " + name + " process with " + arg)
}

// clockTicks is the unit of /proc/<pid>/stat's CPU times (USER_HZ), 100 on every Linux architecture Go runs on.
const clockTicks = 100

// ProcessCPU returns the CPU time process pid has used so far, user and system (/proc/<pid>/stat).
func ProcessCPU(pid int) (time.Duration, error) {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, err
	}
	// The command name, field 2, is in parentheses and may contain spaces: count fields after its end.
	end := bytes.LastIndexByte(stat, ')')
	if end < 0 {
		return 0, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	fields := strings.Fields(string(stat[end+1:]))
	// fields[0] is field 3 (state); utime and stime are fields 14 and 15.
	if len(fields) < 13 {
		return 0, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	utime, err := strconv.ParseUint(fields[11], 10, 64)
	if err != nil {
		return 0, err
	}
	stime, err := strconv.ParseUint(fields[12], 10, 64)
	if err != nil {
		return 0, err
	}
	return time.Duration(utime+stime) * time.Second / clockTicks, nil
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
