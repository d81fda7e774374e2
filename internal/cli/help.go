package cli

import (
	"fmt"
	"strings"
)

// helpWidth is the column a list in a command's help wraps at, that of the commands' hand-wrapped Long texts.
const helpWidth = 116

// Term is one entry of a list in a command's help, such as an exit code or a fault, and what it means.
type Term struct {
	Name, Text string
}

// TermList formats terms as a command's help lists them, one to a line: the name indented by two spaces in a
// column nameWidth wide, its text beside it (a space after a wider name), wrapped at helpWidth under the text's
// column. It ends without a newline.
func TermList(nameWidth int, terms []Term) string {
	lines := make([]string, 0, len(terms))
	for _, t := range terms {
		first := fmt.Sprintf("  %-*s ", nameWidth, t.Name)
		// The text's column, also below a name wider than nameWidth.
		indent := strings.Repeat(" ", 2+nameWidth+1)
		line, empty := first, true
		for _, word := range strings.Fields(t.Text) {
			if !empty && len(line)+1+len(word) > helpWidth {
				lines = append(lines, line)
				line, empty = indent, true
			}
			if !empty {
				line += " "
			}
			line += word
			empty = false
		}
		lines = append(lines, strings.TrimRight(line, " "))
	}
	return strings.Join(lines, "\n")
}
