package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"
	"sigs.k8s.io/yaml"
)

// OutputFormat is -o: "" for text, json or yaml. Every command with output takes it through AddOutputFlag and
// prints through Print or PrintStream.
type OutputFormat string

const (
	OutputText OutputFormat = ""
	OutputJSON OutputFormat = "json"
	OutputYAML OutputFormat = "yaml"
)

// AddOutputFlag registers -o/--output; what says what is printed in the structured formats.
func AddOutputFlag(fs *pflag.FlagSet, target *OutputFormat, what string) {
	fs.VarP((*outputFlag)(target), "output", "o", "output format: json or yaml ("+what+"); empty for text")
}

// outputFlag is the pflag.Value of -o: it rejects unknown formats while the flags are parsed.
type outputFlag OutputFormat

func (f *outputFlag) String() string { return string(*f) }
func (f *outputFlag) Type() string   { return "format" }
func (f *outputFlag) Set(s string) error {
	switch OutputFormat(s) {
	case OutputText, OutputJSON, OutputYAML:
		*f = outputFlag(s)
		return nil
	}
	return fmt.Errorf("unknown output format %q: want json or yaml", s)
}

// Validate is for options set without flags (tests, library callers).
func (f OutputFormat) Validate() error {
	var flag outputFlag
	return flag.Set(string(f))
}

// Structured says whether the output is JSON or YAML rather than text.
func (f OutputFormat) Structured() bool { return f == OutputJSON || f == OutputYAML }

// Print writes v as one document: indented JSON, or YAML.
func (f OutputFormat) Print(out io.Writer, v any) error {
	switch f {
	case OutputJSON:
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	case OutputYAML:
		data, err := yaml.Marshal(v)
		if err != nil {
			return err
		}
		_, err = out.Write(data)
		return err
	}
	return fmt.Errorf("output format %q is not structured", f)
}

// PrintStream writes v as one record of a stream that is printed as it happens: a JSON line, or a YAML
// document after "---".
func (f OutputFormat) PrintStream(out io.Writer, v any) error {
	switch f {
	case OutputJSON:
		data, err := json.Marshal(v)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(out, "%s\n", data)
		return err
	case OutputYAML:
		data, err := yaml.Marshal(v)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(out, "---\n%s", data)
		return err
	}
	return fmt.Errorf("output format %q is not structured", f)
}

// IsTerminal says whether out is a character device, as a terminal is, where a live view is redrawn in place.
// (golang.org/x/term's IsTerminal is exact, but not a direct dependency of kmsguard; a redrawn bar sent to
// /dev/null is harmless.)
func IsTerminal(out io.Writer) bool {
	f, ok := out.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
