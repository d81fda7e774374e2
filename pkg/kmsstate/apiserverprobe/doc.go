// Package apiserverprobe asks each kube-apiserver what it thinks of its KMS providers, and turns the answers
// into kmsstate.APIServerViews.
//
// Plugin-side health reports say whether a plugin answers; only the apiserver can say whether it is itself able
// to use KMS. The two differ when, for example, a plugin answers its own reporter but not the apiserver (wrong
// socket in the encryption config), or when the apiserver restarted while the KMS was down and can no longer
// decrypt what it stored. So a Prober asks every kube-apiserver directly, not through the service in front of
// them, two questions:
//
//   - GET /healthz/kms-providers, the check that calls each provider's Status. kube-apiserver answers it from a
//     cache (20 s after a success, 3 s after a failure), so asking it does not load the KMS.
//   - GET /metrics, of which only three families are kept: failed KMS gRPC calls, failed reads of KMS-encrypted
//     values, and the key id hash each provider last reported in Status. See metrics.go for the exact series.
//     The health check looks at Status alone, so at the current key only: when the key of older data is disabled
//     or lost, the check passes while those reads fail, and only the metrics tell.
//
// /metrics is the expensive question: a busy kube-apiserver answers several MiB, and a Prober may be asked more
// often than that is worth (the kmsstate controller asks every report interval, and at once when KMS comes into
// use, from a loop of its own so that a slow answer never holds its verdict). So each apiserver's /metrics is read about once per Options.MetricsInterval (the report interval, 30 s by default; not again before 9/10 of it, so that a controller asking every interval reads every time); Probes in
// between ask only the health check and carry the last sample, or the error of the last read. Each sample says
// when it was read (ScrapedAt) and carries the one read before it (Previous), so the growth kmsstate sees in it
// holds until the next read instead of showing once and vanishing at the next sync. The answer is read as it
// arrives: only the three KMS families are collected, every other family is checked by the parser in chunks of
// 256 KiB and dropped, so memory does not grow with the size of the answer (exposition.go).
//
// Every request has its own timeout and is never retried: a Prober runs inside a controller that resyncs, and
// the next sync is the retry. Targets are asked concurrently, at most Options.Concurrency at a time; the two
// questions to one apiserver are asked one after the other, and the second not at all when the first could not
// reach it. The health check is given a second (defaultHealthzWait): while a plugin hangs, kube-apiserver
// answers it only when its own Status call times out, and the metrics, which show failed reads at once, must not
// wait for that. A check that takes longer goes on in the background, bounded by Options.Timeout, and its answer
// is the next Probe's; until then a view carries the last answer, or a "timeout" Err saying there is none yet.
//
// # What a view means
//
// KMSHealthz is set when the health check gave a verdict: OK for 200, or a failure whose Detail is taken from the
// answer. kube-apiserver's own answer is one line, "internal server error: kms-provider-<index>: <error>", which
// names the provider by its index in the encryption config, and by its name only when the Status call was made
// for that very request rather than answered from the cache.
//
// Metrics is set when /metrics was read to its end and every line of it parsed; it is never a partial sample. It
// may be the sample of an earlier Probe, within Options.MetricsInterval: see its ScrapedAt.
//
// Err says what kept either from being set, starting with one word for the kind of failure: "transport"
// (connection refused, TLS, reset), "timeout", "canceled" (Probe's context ended), "target" (the Target URL is
// unusable), "http" (a status that carries no answer: 401, 403 or 404 from the health check, which say that the
// prober may not ask or that there is no such check and nothing about KMS, or anything but 200 from /metrics) or
// "metrics" (not a complete Prometheus text exposition, or one whose KMS series changed shape). A
// view with Err set and neither KMSHealthz nor Metrics could not ask the apiserver at all, which is not by itself
// a KMS failure. A view may also carry one answer and Err, when only the other question failed.
//
// # Access
//
// In OpenShift the operator reaches each kube-apiserver pod at https://<node-ip>:6443 with its service account
// token. That identity needs RBAC get on the nonResourceURLs /healthz/kms-providers and /metrics: the default
// system:public-info-viewer role grants /healthz but not its sub-paths. See NewForConfig for TLS.
package apiserverprobe
