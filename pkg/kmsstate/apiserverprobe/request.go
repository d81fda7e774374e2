package apiserverprobe

import (
	"context"
	"errors"
	"io"
	"net/http"
)

// get sends GET rawURL with the Prober's timeout and lets read consume the response within that same timeout. An
// error while reading the body, or a read that ended after the deadline, is classified as a transport failure or
// a timeout, whatever read made of it.
func (p *Prober) get(ctx context.Context, rawURL, accept string, read func(resp *http.Response, body io.Reader) error) error {
	reqCtx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(reqCtx, http.MethodGet, rawURL, nil)
	if err != nil {
		return &probeError{kind: failureTransport, url: rawURL, err: err}
	}
	req.Header.Set("Accept", accept)
	resp, err := p.client.Do(req)
	if err != nil {
		return requestFailure(ctx, rawURL, p.timeout, err)
	}
	defer resp.Body.Close()

	body := &recordingReader{r: resp.Body}
	err = read(resp, body)
	// net/http may end a body that the deadline cut short with a clean io.EOF (seen with HTTP/1.1 over TLS), and a
	// cut at the end of a line parses as a complete exposition. So nothing read after the deadline is trusted.
	if reqCtx.Err() != nil {
		return requestFailure(ctx, rawURL, p.timeout, context.Cause(reqCtx))
	}
	if err != nil && body.err != nil {
		return requestFailure(ctx, rawURL, p.timeout, body.err)
	}
	return err
}

// recordingReader remembers the first error of its reader other than io.EOF, so that a body cut by a timeout
// or a dropped connection is not mistaken for a badly formed one.
type recordingReader struct {
	r   io.Reader
	err error
}

func (r *recordingReader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	if err != nil && err != io.EOF && r.err == nil {
		r.err = err
	}
	return n, err
}

// httpStatusError explains an HTTP status that is no answer to the question asked.
func httpStatusError(rawURL string, resp *http.Response, body io.Reader) error {
	prefix, _ := io.ReadAll(io.LimitReader(body, maxDetailBytes))
	msg := resp.Status
	switch resp.StatusCode {
	case http.StatusUnauthorized:
		msg += " (the prober's credentials were not accepted)"
	case http.StatusForbidden:
		msg += " (the prober's identity needs RBAC get on this nonResourceURL)"
	case http.StatusNotFound:
		msg += " (no such endpoint on this apiserver)"
	}
	if text := oneLine(string(prefix)); text != "" {
		msg += ": " + text
	}
	return &probeError{kind: failureHTTP, url: rawURL, err: errors.New(truncate(msg, maxDetailBytes))}
}
