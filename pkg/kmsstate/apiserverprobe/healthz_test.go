package apiserverprobe

import (
	"net/http"
	"strings"
	"testing"
)

func TestFailedChecks(t *testing.T) {
	scenarios := []struct {
		name string
		code int
		body string
		want string
	}{
		{
			// What kube-apiserver v1.36 answered on /healthz/kms-providers with its plugin stopped.
			name: "kube-apiserver's own answer names the provider by index",
			code: http.StatusInternalServerError,
			body: "internal server error: kms-provider-0: rpc error: code = Unavailable desc = fake kms plugin: injected failure (Unavailable)\n",
			want: "HTTP 500: internal server error: kms-provider-0: rpc error: code = Unavailable desc = fake kms plugin: injected failure (Unavailable)",
		},
		{
			name: "verbose output keeps only the failed checks",
			code: http.StatusInternalServerError,
			body: "[+]ping ok\n[+]etcd ok\n[-]kms-provider-0 failed: rpc error: code = DeadlineExceeded\n" +
				"[-]kms-provider-1 failed: reason withheld\n[+]poststarthook/start-apiserver-admission-initializer ok\nhealthz check failed\n",
			want: "[-]kms-provider-0 failed: rpc error: code = DeadlineExceeded; [-]kms-provider-1 failed: reason withheld",
		},
		{
			name: "no body",
			code: http.StatusServiceUnavailable,
			want: "HTTP 503",
		},
		{
			name: "a multi-line body reads as one line",
			code: http.StatusBadGateway,
			body: "upstream\n\n  unavailable  \n",
			want: "HTTP 502: upstream; unavailable",
		},
		{
			name: "invalid UTF-8 is replaced",
			code: http.StatusInternalServerError,
			body: "bad \xff byte",
			want: "HTTP 500: bad ? byte",
		},
		{
			name: "a long body is cut",
			code: http.StatusInternalServerError,
			body: strings.Repeat("x", 5000),
			want: "HTTP 500: " + strings.Repeat("x", maxDetailBytes-len("HTTP 500: ")-3) + "...",
		},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			got := failedChecks(s.code, s.body)
			if got != s.want {
				t.Errorf("failedChecks(%d, %q)\n got %q\nwant %q", s.code, s.body, got, s.want)
			}
			if len(got) > maxDetailBytes {
				t.Errorf("detail is %d bytes, more than %d", len(got), maxDetailBytes)
			}
		})
	}
}

func TestTruncate(t *testing.T) {
	scenarios := []struct {
		name string
		s    string
		n    int
		want string
	}{
		{name: "short enough", s: "abc", n: 3, want: "abc"},
		{name: "cut with a marker", s: "abcdefgh", n: 6, want: "abc..."},
		{name: "never inside a rune", s: "ab€€", n: 7, want: "ab..."},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			if got := truncate(s.s, s.n); got != s.want {
				t.Errorf("truncate(%q, %d) = %q, want %q", s.s, s.n, got, s.want)
			}
		})
	}
}
