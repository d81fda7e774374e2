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
	// chunkBytes is how much of a family that is not kept is parsed at a time. The largest families of a busy
	// kube-apiserver (request and etcd latency histograms, one series per resource and verb) are a few MiB;
	// they are checked in pieces of this size and dropped, so that they are never held whole.
	chunkBytes = 256 << 10
)

// maxKeptFamilyBytes bounds the text of one family that is kept, which is held until it ends. The KMS families
// have a series per provider, method and gRPC code, or per provider and key id hash (at most 100 of those), so
// they are tens of KiB. A variable so that tests can lower it.
var maxKeptFamilyBytes = 4 << 20

// parseExposition reads a Prometheus text exposition as it arrives and calls fn with each metric family that
// keep accepts, in order.
//
// expfmt.TextParser builds every family of its input before it returns, which for a kube-apiserver is tens of
// MiB of protobuf messages of which three families are wanted. So the input is cut at the HELP and TYPE lines
// that open each family. A family that is kept is collected and parsed whole when it ends; one that is not is
// parsed in chunks of chunkBytes, each behind the family's own HELP and TYPE lines, and dropped. Every line is
// still checked by expfmt, but no more than one kept family and one chunk are held at a time, whatever the size
// of the body. The text format requires the lines of a family to be contiguous; a family found in two places
// is an error, as a second HELP or TYPE line would be to the whole-input parser, and so are the samples of a
// kept family found inside another family, which would otherwise be missed.
//
// Any error means the exposition as a whole is unusable: garbage, a line cut short, or no metric at all.
func parseExposition(r io.Reader, scheme model.ValidationScheme, keep func(name string) bool, fn func(*dto.MetricFamily) error) error {
	x := &expositionReader{
		parser: expfmt.NewTextParser(scheme),
		keep:   keep,
		fn:     fn,
		seenIn: map[string]int{},
	}
	in := bufio.NewReaderSize(r, maxLineBytes)
	lineNo := 0
	for {
		line, err := in.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			return fmt.Errorf("line %d is longer than %d bytes", lineNo+1, maxLineBytes)
		case err == io.EOF && len(line) > 0:
			// The text format ends every line, the last one too, with a newline.
			return fmt.Errorf("truncated: line %d ends without a newline", lineNo+1)
		case err == io.EOF:
			if err := x.endFamily(); err != nil {
				return err
			}
			if x.families == 0 {
				return errors.New("no metrics in the answer")
			}
			return nil
		case err != nil:
			return err
		}
		lineNo++
		if err := x.line(line, lineNo); err != nil {
			return err
		}
	}
}

// expositionReader is the state of parseExposition: the family being read and what was seen before it.
type expositionReader struct {
	parser expfmt.TextParser
	keep   func(string) bool
	fn     func(*dto.MetricFamily) error

	// block is the number of the current family, counting from 1; 0 before the first HELP or TYPE line.
	block int
	// name is the family the current block was opened for; kept says whether it is kept.
	name string
	kept bool
	// header holds the HELP and TYPE lines that opened the block, from line headerLine; it is put in front of
	// every chunk, so that each chunk parses as the family it belongs to.
	header     bytes.Buffer
	headerLine int
	// body holds the block's other lines not yet parsed, from line bodyLine.
	body     bytes.Buffer
	bodyLine int
	// parsedHeader says whether the header has been parsed with a chunk already.
	parsedHeader bool

	// seenIn is, per family name parsed, the block it was found in.
	seenIn   map[string]int
	families int
}

// line takes one line, numbered lineNo.
func (x *expositionReader) line(line []byte, lineNo int) error {
	if name, ok := familyOpened(line); ok {
		if name != x.name {
			if err := x.endFamily(); err != nil {
				return err
			}
			x.block++
			x.name, x.kept = name, x.keep(name)
			x.header.Reset()
			x.body.Reset()
			x.parsedHeader = false
			x.headerLine = lineNo
		}
		if x.body.Len() == 0 {
			x.header.Write(line)
			return nil
		}
	}
	if x.body.Len() == 0 {
		x.bodyLine = lineNo
	}
	x.body.Write(line)
	switch {
	case x.kept && x.header.Len()+x.body.Len() > maxKeptFamilyBytes:
		return fmt.Errorf("metric family %q, from line %d, is larger than %d bytes", x.name, x.headerLine, maxKeptFamilyBytes)
	case !x.kept && x.body.Len() >= chunkBytes:
		return x.parseChunk()
	}
	return nil
}

// endFamily parses what is left of the current family.
func (x *expositionReader) endFamily() error {
	if x.body.Len() == 0 && (x.parsedHeader || x.header.Len() == 0) {
		return nil
	}
	return x.parseChunk()
}

// parseChunk parses the header and the body held, hands the families of a kept block to fn, and empties the
// body.
func (x *expositionReader) parseChunk() error {
	var text bytes.Buffer
	text.Grow(x.header.Len() + x.body.Len())
	text.Write(x.header.Bytes())
	text.Write(x.body.Bytes())
	headerLines := bytes.Count(x.header.Bytes(), []byte("\n"))
	parsed, err := x.parser.TextToMetricFamilies(&text)
	if err != nil {
		var parseErr expfmt.ParseError
		if errors.As(err, &parseErr) {
			// The parser counts lines from the start of the chunk, header first.
			line := x.headerLine + parseErr.Line - 1
			if parseErr.Line > headerLines {
				line = x.bodyLine + parseErr.Line - headerLines - 1
			}
			return fmt.Errorf("line %d: %s", line, parseErr.Msg)
		}
		return fmt.Errorf("metrics from line %d: %w", x.headerLine, err)
	}
	x.parsedHeader = true
	x.body.Reset()
	for name, family := range parsed {
		if block, ok := x.seenIn[name]; ok && block != x.block {
			return fmt.Errorf("metric family %q is split in two near line %d", name, x.headerLine)
		}
		if _, ok := x.seenIn[name]; !ok {
			x.families++
		}
		x.seenIn[name] = x.block
		if !x.kept {
			if x.keep(name) {
				return fmt.Errorf("metric family %q has series under family %q, near line %d", name, x.name, x.headerLine)
			}
			continue
		}
		if err := x.fn(family); err != nil {
			return err
		}
	}
	return nil
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
