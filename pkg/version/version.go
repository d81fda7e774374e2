// Package version reports the kmsguard build, set at link time by the Makefile.
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// gitVersion and gitCommit are set with -ldflags -X by `make build`; a plain `go build` leaves the defaults and
// Get falls back to the module information Go embeds.
var (
	gitVersion = "v0.0.0-dev"
	gitCommit  = ""
)

// Info describes a kmsguard build.
type Info struct {
	GitVersion string `json:"gitVersion"`
	GitCommit  string `json:"gitCommit,omitempty"`
	GoVersion  string `json:"goVersion"`
	Platform   string `json:"platform"`
}

// Get returns the version of the running binary.
func Get() Info {
	info := Info{GitVersion: gitVersion, GitCommit: gitCommit, GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if info.GitCommit == "" {
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				if s.Key == "vcs.revision" {
					info.GitCommit = s.Value
				}
			}
		}
	}
	return info
}

// String is the one-line form printed by `kmsguard version`.
func (i Info) String() string {
	if i.GitCommit == "" {
		return fmt.Sprintf("kmsguard %s (%s, %s)", i.GitVersion, i.GoVersion, i.Platform)
	}
	return fmt.Sprintf("kmsguard %s (commit %s, %s, %s)", i.GitVersion, i.GitCommit, i.GoVersion, i.Platform)
}
