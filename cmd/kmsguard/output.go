package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/pflag"
	"sigs.k8s.io/yaml"
)

// outputFormat is -o: "" for text, json or yaml. Every command with output takes it through addOutputFlag and
// prints through print or printStream.
type outputFormat string

const (
	outputText outputFormat = ""
	outputJSON outputFormat = "json"
	outputYAML outputFormat = "yaml"
)

// addOutputFlag registers -o/--output; what says what is printed in the structured formats.
func addOutputFlag(fs *pflag.FlagSet, target *outputFormat, what string) {
	fs.VarP((*outputFlag)(target), "output", "o", "output format: json or yaml ("+what+"); empty for text")
}

// outputFlag is the pflag.Value of -o: it rejects unknown formats while the flags are parsed.
type outputFlag outputFormat

func (f *outputFlag) String() string { return string(*f) }
func (f *outputFlag) Type() string   { return "format" }
func (f *outputFlag) Set(s string) error {
	switch outputFormat(s) {
	case outputText, outputJSON, outputYAML:
		*f = outputFlag(s)
		return nil
	}
	return fmt.Errorf("unknown output format %q: want json or yaml", s)
}

// validate is for options set without flags (tests, library callers).
func (f outputFormat) validate() error {
	var flag outputFlag
	return flag.Set(string(f))
}

// structured says whether the output is JSON or YAML rather than text.
func (f outputFormat) structured() bool { return f == outputJSON || f == outputYAML }

// print writes v as one document: indented JSON, or YAML.
func (f outputFormat) print(out io.Writer, v any) error {
	switch f {
	case outputJSON:
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	case outputYAML:
		data, err := yaml.Marshal(v)
		if err != nil {
			return err
		}
		_, err = out.Write(data)
		return err
	}
	return fmt.Errorf("output format %q is not structured", f)
}

// printStream writes v as one record of a stream that is printed as it happens: a JSON line, or a YAML
// document after "---".
func (f outputFormat) printStream(out io.Writer, v any) error {
	switch f {
	case outputJSON:
		data, err := json.Marshal(v)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(out, "%s\n", data)
		return err
	case outputYAML:
		data, err := yaml.Marshal(v)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(out, "---\n%s", data)
		return err
	}
	return fmt.Errorf("output format %q is not structured", f)
}
