package apiserverprobe

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

const (
	// maxLineBytes bounds one line of the exposition. kube-apiserver's longest lines, HELP texts and histogram
	// buckets with four labels, are under 1 KiB; a line without end in the first 64 KiB is not metrics text.
	maxLineBytes = 64 << 10
	// maxFamilyBytes bounds the text of one metric family, the most that is parsed at a time. The largest
	// families of a busy kube-apiserver (request and etcd latency histograms, one series per resource and verb)
	// are a few MiB.
	maxFamilyBytes = 32 << 20
)

// parseExposition reads a Prometheus text exposition and calls fn with each metric family, in order.
//
// expfmt.TextParser builds every family of its input before it returns, which for a kube-apiserver is tens of
// MiB of protobuf messages of which three families are wanted. So the input is cut into blocks of whole
// families, at the HELP and TYPE lines that open each family, and each block is parsed on its own: every line is
// still checked by expfmt, but only one family is held at a time. The text format requires the lines of a family
// to be contiguous; a family found in two blocks is an error, as a second HELP or TYPE line would be to the
// whole-input parser.
//
// Any error means the exposition as a whole is unusable: garbage, a line cut short, or no metric at all.
func parseExposition(r io.Reader, scheme model.ValidationScheme, fn func(*dto.MetricFamily) error) error {
	parser := expfmt.NewTextParser(scheme)
	seen := map[string]bool{}
	families := 0
	parseBlock := func(block []byte, firstLine int) error {
		parsed, err := parser.TextToMetricFamilies(bytes.NewReader(block))
		if err != nil {
			var parseErr expfmt.ParseError
			if errors.As(err, &parseErr) {
				// The parser counts lines from the start of the block.
				return fmt.Errorf("line %d: %s", firstLine+parseErr.Line-1, parseErr.Msg)
			}
			return fmt.Errorf("metrics from line %d: %w", firstLine, err)
		}
		for name, family := range parsed {
			if seen[name] {
				return fmt.Errorf("metric family %q is split in two near line %d", name, firstLine)
			}
			seen[name] = true
			families++
			if err := fn(family); err != nil {
				return err
			}
		}
		return nil
	}

	in := bufio.NewReaderSize(r, maxLineBytes)
	var block bytes.Buffer
	blockName, blockLine, lineNo := "", 0, 0
	for {
		line, err := in.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			return fmt.Errorf("line %d is longer than %d bytes", lineNo+1, maxLineBytes)
		case err == io.EOF && len(line) > 0:
			// The text format ends every line, the last one too, with a newline.
			return fmt.Errorf("truncated: line %d ends without a newline", lineNo+1)
		case err == io.EOF:
			if block.Len() > 0 {
				if err := parseBlock(block.Bytes(), blockLine); err != nil {
					return err
				}
			}
			if families == 0 {
				return errors.New("no metrics in the answer")
			}
			return nil
		case err != nil:
			return err
		}
		lineNo++

		if name, ok := familyOpened(line); ok && name != blockName {
			if block.Len() > 0 {
				if err := parseBlock(block.Bytes(), blockLine); err != nil {
					return err
				}
				block.Reset()
			}
			blockName = name
		}
		if block.Len() == 0 {
			blockLine = lineNo
		}
		if block.Len()+len(line) > maxFamilyBytes {
			return fmt.Errorf("metric family %q, from line %d, is larger than %d bytes", blockName, blockLine, maxFamilyBytes)
		}
		block.Write(line)
	}
}

// familyOpened returns the metric name of a "# HELP <name> ..." or "# TYPE <name> ..." line, the lines that open
// a family, read as the parser reads them (blanks around "#" are optional). A quoted UTF-8 name with a blank
// inside gives a shorter token, the same for both lines of its family, so the cut still falls between families.
func familyOpened(line []byte) (string, bool) {
	rest, ok := bytes.CutPrefix(bytes.TrimLeft(line, " \t"), []byte("#"))
	if !ok {
		return "", false
	}
	fields := bytes.Fields(rest)
	if len(fields) < 2 {
		return "", false
	}
	if keyword := string(fields[0]); keyword != "HELP" && keyword != "TYPE" {
		return "", false
	}
	return string(fields[1]), true
}
