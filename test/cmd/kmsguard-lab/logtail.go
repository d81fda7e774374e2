package main

import (
	"bytes"
	"io"
	"strings"
	"sync"
)

// logTail keeps the last lines written to it, for a live view that is redrawn in place and shows the latest steps
// below it. Until hold is called it also passes what it is given through to another writer, so that what is
// logged before the view starts is seen as it happens.
type logTail struct {
	mu          sync.Mutex
	max         int
	lines       []string
	partial     bytes.Buffer
	passThrough io.Writer
}

func newLogTail(max int, passThrough io.Writer) *logTail {
	return &logTail{max: max, passThrough: passThrough}
}

func (t *logTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.passThrough != nil {
		if _, err := t.passThrough.Write(p); err != nil {
			return 0, err
		}
	}
	t.partial.Write(p)
	for {
		line, err := t.partial.ReadString('\n')
		if err != nil {
			// No newline yet: keep the start of the line for the next write.
			t.partial.Reset()
			t.partial.WriteString(line)
			break
		}
		t.lines = append(t.lines, strings.TrimSuffix(line, "\n"))
	}
	if over := len(t.lines) - t.max; over > 0 {
		t.lines = append(t.lines[:0], t.lines[over:]...)
	}
	return len(p), nil
}

// hold stops passing lines through: the live view shows them from now on.
func (t *logTail) hold() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.passThrough = nil
}

// String is the kept lines, each ending in a newline.
func (t *logTail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.lines) == 0 {
		return ""
	}
	return strings.Join(t.lines, "\n") + "\n"
}
