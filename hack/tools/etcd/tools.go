//go:build tools

// Package tools pins the etcd server command for `go build` in this module.
package tools

import _ "go.etcd.io/etcd/server/v3"
