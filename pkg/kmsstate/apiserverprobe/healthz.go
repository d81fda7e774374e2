package apiserverprobe

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/kmsguard/kmsguard/pkg/kmsstate"
)

const (
	// kmsHealthzPath is kube-apiserver's check of all KMS providers. It exists when KMS v2 is used without KMS v1,
	// or when the encryption config is reloaded automatically, which covers every OpenShift KMS configuration.
	kmsHealthzPath = "/healthz/kms-providers"
	// maxHealthzBody bounds what is read of a health answer. kube-apiserver's most verbose one, /healthz?verbose
	// with every check listed, is about 2 KiB; more is not a kube-apiserver health answer.
	maxHealthzBody = 64 << 10
	// maxDetailBytes bounds the text copied from an answer into a view, so that it fits in a condition message
	// and still holds the errors of a few providers.
	maxDetailBytes = 1024
	// failedCheckPrefix starts each failed check in kube-apiserver's verbose health output.
	failedCheckPrefix = "[-]"
)

// kmsHealthz asks the apiserver's KMS health check. A 401, 403 or 404 is an error rather than a failed check:
// it says the prober may not ask, or the apiserver has no such check, and nothing about KMS.
func (p *Prober) kmsHealthz(ctx context.Context, base *url.URL) (*kmsstate.HealthzResult, error) {
	rawURL := base.JoinPath(kmsHealthzPath).String()
	var result *kmsstate.HealthzResult
	err := p.get(ctx, rawURL, "text/plain", func(resp *http.Response, body io.Reader) error {
		// Read even when only the status matters, so that the connection can be reused.
		text, err := io.ReadAll(io.LimitReader(body, maxHealthzBody))
		if err != nil {
			return err
		}
		switch resp.StatusCode {
		case http.StatusOK:
			result = &kmsstate.HealthzResult{OK: true}
		case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
			return httpStatusError(rawURL, resp, bytes.NewReader(text))
		default:
			result = &kmsstate.HealthzResult{Detail: failedChecks(resp.StatusCode, string(text))}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return result, nil
}

// failedChecks extracts why a health check failed from its answer: the "[-]<check> failed: ..." lines of a
// verbose answer, or else the status code and the start of the body.
//
// kube-apiserver answers /healthz/kms-providers itself with one line, "internal server error: kms-provider-0:
// <error>", in which the provider is named by its index in the encryption config; its own name appears only
// when the Status call was made for this request rather than answered from the apiserver's cache. The "[-]"
// lines come from the aggregated endpoints (/healthz?verbose, /readyz?verbose), whose failures say only
// "reason withheld".
func failedChecks(code int, body string) string {
	var failed []string
	for line := range strings.Lines(strings.ToValidUTF8(body, "?")) {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, failedCheckPrefix) {
			failed = append(failed, line)
		}
	}
	if len(failed) > 0 {
		return truncate(strings.Join(failed, "; "), maxDetailBytes)
	}
	detail := fmt.Sprintf("HTTP %d", code)
	if text := oneLine(body); text != "" {
		detail += ": " + text
	}
	return truncate(detail, maxDetailBytes)
}

// oneLine joins the non-blank lines of s with "; ", so that a multi-line answer reads well in a condition, and
// replaces invalid UTF-8, which an API string must not hold.
func oneLine(s string) string {
	var lines []string
	for line := range strings.Lines(strings.ToValidUTF8(s, "?")) {
		if line = strings.TrimSpace(line); line != "" {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "; ")
}

// truncate cuts s to at most n bytes, on a rune boundary, marking the cut with "...".
func truncate(s string, n int) string {
	const marker = "..."
	if len(s) <= n {
		return s
	}
	cut := n - len(marker)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + marker
}
