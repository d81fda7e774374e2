package lab

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// ControlSocket is the unix socket in the lab's directory that `kmsguard-lab inject` reaches a running lab at.
const ControlSocket = "control.sock"

// controlPath is where a lab serves Inject over HTTP: POST a JSON Injection, get what was done (200) or why not
// (400, 500) as text.
const controlPath = "/inject"

// serveControl serves Inject on the lab's control socket until ctx is done. Only the user who runs the lab can
// reach it: the socket is 0600, in a 0700 directory.
func (l *Lab) serveControl(ctx context.Context) error {
	path := filepath.Join(l.dir, ControlSocket)
	_ = os.Remove(path) // a socket left by a lab that died
	listener, err := net.Listen("unix", path)
	if err != nil {
		return fmt.Errorf("lab: control socket: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		listener.Close()
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+controlPath, func(w http.ResponseWriter, r *http.Request) {
		var in Injection
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&in); err != nil {
			http.Error(w, "not an injection: "+err.Error(), http.StatusBadRequest)
			return
		}
		did, err := l.Inject(r.Context(), in)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		l.logf("lab: injected %s: %s", in.Fault, did)
		fmt.Fprintln(w, did)
	})
	server := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	l.done.Add(1)
	go func() {
		defer l.done.Done()
		<-ctx.Done()
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = server.Shutdown(shutdownCtx)
	}()
	go func() {
		if err := server.Serve(listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
			l.logf("lab: control socket: %v", err)
		}
	}()
	return nil
}

// InjectInto asks the lab running in dir to inject a fault, and returns what it did.
func InjectInto(ctx context.Context, dir string, in Injection) (string, error) {
	path := filepath.Join(dir, ControlSocket)
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("no lab runs in %s (no %s): start one with kmsguard-lab --dir %s", dir, ControlSocket, dir)
	}
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", path)
	}}}
	body, err := json.Marshal(in)
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://lab"+controlPath, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("reaching the lab in %s: %w", dir, err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", errors.New(string(bytes.TrimSpace(answer)))
	}
	return string(bytes.TrimSpace(answer)), nil
}
