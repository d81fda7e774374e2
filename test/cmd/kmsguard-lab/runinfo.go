package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// sourceCommit is the commit the working tree is at, "+ uncommitted changes" when tracked files differ from it, so
// that a recorded figure names the source that produced it: git describe, as the migration benchmark's header
// names its commit.
func sourceCommit(ctx context.Context) string {
	out, err := exec.CommandContext(ctx, "git", "describe", "--always", "--abbrev=7", "--dirty= + uncommitted changes").Output()
	if err != nil {
		return "unknown (no git checkout here)"
	}
	return strings.TrimSpace(string(out))
}

// commandLine is `kmsguard-lab tour` with the flags given, in a form the reader can type again.
func commandLine(flags *pflag.FlagSet) string {
	line := []string{"kmsguard-lab tour"}
	flags.Visit(func(f *pflag.Flag) {
		value := f.Value.String()
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			value = strings.Join(sv.GetSlice(), ",")
		}
		if f.Value.Type() == "bool" && value == "true" {
			line = append(line, "--"+f.Name)
			return
		}
		line = append(line, "--"+f.Name+" "+value)
	})
	return strings.Join(line, " ")
}

// machine says what the run had to work with: CPUs and memory (from /proc on Linux).
func machine() string {
	desc := fmt.Sprintf("%d CPUs", runtime.NumCPU())
	if model := procField("/proc/cpuinfo", "model name"); model != "" {
		desc += " (" + model + ")"
	}
	if kb, err := strconv.ParseFloat(strings.TrimSuffix(procField("/proc/meminfo", "MemTotal"), " kB"), 64); err == nil {
		desc += fmt.Sprintf(", %.0f GiB of memory", kb/(1<<20))
	}
	return desc + ", " + runtime.GOOS + "/" + runtime.GOARCH
}

// procField is the value of the first "name: value" line of a /proc file, or "" without one.
func procField(path, name string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if key, value, ok := strings.Cut(s.Text(), ":"); ok && strings.TrimSpace(key) == name {
			return strings.TrimSpace(value)
		}
	}
	return ""
}
