package main

import (
	"fmt"
	"io"
	"time"

	"github.com/kmsguard/kmsguard/pkg/evidence"
)

// verifyProgress shows how far a long verify scan is, on stderr: a line redrawn in place on a terminal, a
// line every few seconds otherwise, as migrate does. Nothing is shown until the first interval has passed,
// so a short scan prints nothing. It is called on the scanning goroutine after every etcd page, so it needs
// no lock and no timer of its own.
type verifyProgress struct {
	out      io.Writer
	terminal bool
	interval time.Duration
	now      func() time.Time
	last     time.Time
	drawn    bool
}

func (o *verifyOptions) newProgress(out io.Writer) *verifyProgress {
	p := &verifyProgress{out: out, now: time.Now}
	p.terminal, p.interval = progressCadence(out, o.terminal, o.progressInterval)
	if o.now != nil {
		p.now = o.now
	}
	p.last = p.now()
	return p
}

// observe shows pr if the interval since the last line has passed.
func (p *verifyProgress) observe(pr evidence.Progress) {
	now := p.now()
	if now.Sub(p.last) < p.interval {
		return
	}
	p.last = now
	line := progressLine(pr)
	if p.terminal {
		fmt.Fprintf(p.out, "\r%s\x1b[K", line)
		p.drawn = true
		return
	}
	fmt.Fprintln(p.out, line)
}

// done clears a line drawn in place, so that what follows starts on a clean line.
func (p *verifyProgress) done() {
	if p.terminal && p.drawn {
		fmt.Fprint(p.out, "\r\x1b[K")
		p.drawn = false
	}
}

// progressLine is one short line, like
//
//	secrets (/kubernetes.io/secrets/): scanning etcd, 41200/50000 keys  82%
func progressLine(p evidence.Progress) string {
	line := fmt.Sprintf("%s (%s): %s, %d", p.Resource, p.Prefix, p.Phase, p.Keys)
	if p.Total > 0 && p.Phase == evidence.PhaseScanning {
		return line + fmt.Sprintf("/%d keys %3.0f%%", p.Total, 100*min(float64(p.Keys)/float64(p.Total), 1))
	}
	return line + " keys"
}
