package fake

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"time"
)

const (
	// socketMode lets only the owner connect. The apiserver runs as the
	// same user as the tests, and KMS plugin sockets on real nodes are
	// owner-only too, since whoever can connect can decrypt.
	socketMode fs.FileMode = 0o600

	// staleProbeTimeout bounds the dial that checks whether an existing
	// socket is still served. A unix dial answers at once (connected, or
	// refused when nothing listens); the timeout only guards against a
	// listener whose accept backlog is full.
	staleProbeTimeout = time.Second
)

// listenUnix listens on a unix socket at path with mode socketMode, first
// removing a stale socket that a stopped or crashed plugin left behind.
//
// There is a short window between creating the socket and the chmod during
// which the socket has the default mode. No RPC is served until the caller
// starts serving, after listenUnix returns, and the fake runs in a test
// environment, so the window is accepted rather than changing the
// process-wide umask, which would race with every other goroutine creating
// files.
func listenUnix(path string) (net.Listener, error) {
	if err := removeStaleSocket(path); err != nil {
		return nil, err
	}
	listener, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("fake kms plugin: listening on %s: %w", path, err)
	}
	if err := os.Chmod(path, socketMode); err != nil {
		_ = listener.Close()
		return nil, fmt.Errorf("fake kms plugin: setting mode of %s: %w", path, err)
	}
	return listener, nil
}

// removeStaleSocket removes the socket at path if nothing listens on it. It
// refuses to remove anything that is not a socket, or a socket that is in
// use, since either would mean the path belongs to someone else.
func removeStaleSocket(path string) error {
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("fake kms plugin: inspecting %s: %w", path, err)
	}
	if info.Mode().Type() != fs.ModeSocket {
		return fmt.Errorf("fake kms plugin: %s exists and is not a socket", path)
	}
	conn, err := net.DialTimeout("unix", path, staleProbeTimeout)
	if err == nil {
		_ = conn.Close()
		return fmt.Errorf("fake kms plugin: %s is already being served", path)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("fake kms plugin: removing stale socket %s: %w", path, err)
	}
	return nil
}
