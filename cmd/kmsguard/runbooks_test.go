package main

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runbookDir holds the runbooks whose kmsguard commands the CLI must accept: the reasons' pages, and below it the
// alerts' (alerts/).
const runbookDir = "../../docs/runbooks"

// minReasonRunbookCommands is a floor under the kmsguard commands the reasons' runbooks (docs/runbooks itself, not
// alerts/) give, 72 as they are: far fewer means the extraction is broken, not that the runbooks changed.
const minReasonRunbookCommands = 60

// runbookPages returns every Markdown page under dir, in subdirectories too, by its path relative to dir.
func runbookPages(dir string) ([]string, error) {
	var pages []string
	err := filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
			rel, err := filepath.Rel(dir, name)
			if err != nil {
				return err
			}
			pages = append(pages, filepath.ToSlash(rel))
		}
		return nil
	})
	return pages, err
}

// kmsguardCommand is a line of a shell block that runs kmsguard: "kmsguard ...", or the binary by a path
// ("/var/tmp/kmsguard ...").
var kmsguardCommand = regexp.MustCompile(`^(?:\S*/)?kmsguard\s`)

// runbookCommand is one kmsguard command of a runbook, and where it is.
type runbookCommand struct {
	where string
	args  []string
}

// runbookCommands returns the kmsguard commands of the shell blocks of a Markdown page: continuation lines
// joined, the command cut at the first shell operator or comment.
func runbookCommands(name, page string) []runbookCommand {
	var commands []runbookCommand
	inShell := false
	lines := strings.Split(page, "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if strings.HasPrefix(line, "```") {
			inShell = !inShell && strings.TrimPrefix(line, "```") == "sh"
			continue
		}
		if !inShell || !kmsguardCommand.MatchString(line) {
			continue
		}
		where := fmt.Sprintf("%s:%d", name, i+1)
		for strings.HasSuffix(line, `\`) && i+1 < len(lines) {
			i++
			line = strings.TrimSuffix(line, `\`) + " " + strings.TrimSpace(lines[i])
		}
		commands = append(commands, runbookCommand{where: where, args: shellWords(line)})
	}
	return commands
}

// shellWords splits a command line as the shell would, for what runbooks write: words separated by blanks,
// single and double quotes, a placeholder <such as this> kept as one word, and the words up to the first
// operator (|, >, ;, &&, ||) or comment. A "..." that stands for more flags, not for a flag's value, is left
// out.
func shellWords(line string) []string {
	var words []string
	var word strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, word.String())
		}
		word.Reset()
		inWord = false
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\'' || c == '"':
			end := strings.IndexByte(line[i+1:], c)
			if end < 0 {
				end = len(line) - i - 1
			}
			word.WriteString(line[i+1 : i+1+end])
			inWord = true
			i += end + 1
		case c == '<':
			end := strings.IndexByte(line[i:], '>')
			if end < 0 {
				end = len(line) - i - 1
			}
			word.WriteString(line[i : i+end+1])
			inWord = true
			i += end
		case c == ' ' || c == '\t':
			flush()
		case !inWord && (c == '#' || c == '|' || c == '>' || c == ';' || c == '&'):
			flush()
			return dropEllipses(words)
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return dropEllipses(words)
}

// dropEllipses leaves out each "..." that is not a flag's value.
func dropEllipses(words []string) []string {
	var kept []string
	for i, w := range words {
		if w == "..." && (i == 0 || !strings.HasPrefix(words[i-1], "-") || strings.Contains(words[i-1], "=")) {
			continue
		}
		kept = append(kept, w)
	}
	return kept
}

// checkCommand parses args (kmsguard's, without the binary) as kmsguard would before running anything: the
// subcommand, its flags and arguments, and the command's own check of its flags (PreRunE).
func checkCommand(args []string) error {
	root := NewCommand()
	cmd, rest, err := root.Find(args)
	if err != nil {
		return err
	}
	if cmd == root {
		return fmt.Errorf("no kmsguard command in %q", strings.Join(args, " "))
	}
	if err := cmd.ParseFlags(rest); err != nil {
		return err
	}
	if help, _ := cmd.Flags().GetBool("help"); help {
		return nil
	}
	positional := cmd.Flags().Args()
	for _, check := range []func() error{
		func() error { return cmd.ValidateArgs(positional) },
		cmd.ValidateRequiredFlags,
		cmd.ValidateFlagGroups,
	} {
		if err := check(); err != nil {
			return err
		}
	}
	for c := cmd; c != nil; c = c.Parent() {
		if c.PersistentPreRunE != nil && c != root {
			return fmt.Errorf("%s has a PersistentPreRunE this check does not run", c.CommandPath())
		}
	}
	if cmd.PreRunE != nil {
		return cmd.PreRunE(cmd, positional)
	}
	return nil
}

// TestRunbookCommandsParse: every kmsguard command a runbook gives, a reason's or an alert's, is one the CLI
// accepts, so that no runbook asks an admin in an outage for a command that fails on its flags.
func TestRunbookCommandsParse(t *testing.T) {
	pages, err := runbookPages(runbookDir)
	if err != nil {
		t.Fatal(err)
	}
	var commands []runbookCommand
	pagesIn, commandsIn := map[string]int{}, map[string]int{}
	for _, page := range pages {
		b, err := os.ReadFile(filepath.Join(runbookDir, filepath.FromSlash(page)))
		if err != nil {
			t.Fatal(err)
		}
		found := runbookCommands(page, string(b))
		commands = append(commands, found...)
		pagesIn[path.Dir(page)]++
		commandsIn[path.Dir(page)] += len(found)
	}
	t.Logf("%d kmsguard commands in %d pages (pages %v, commands %v by directory)", len(commands), len(pages), pagesIn, commandsIn)
	if commandsIn["."] < minReasonRunbookCommands {
		t.Fatalf("found %d kmsguard commands in the %d reasons' runbooks, want at least %d: the extraction is broken",
			commandsIn["."], pagesIn["."], minReasonRunbookCommands)
	}
	if _, err := os.Stat(filepath.Join(runbookDir, "alerts")); err == nil && pagesIn["alerts"] == 0 {
		t.Fatalf("no page read in %s/alerts: the walk does not reach subdirectories", runbookDir)
	}
	for _, c := range commands {
		if err := checkCommand(c.args[1:]); err != nil {
			t.Errorf("%s: kmsguard refuses %q: %v", c.where, strings.Join(c.args, " "), err)
		}
	}
}

// TestCheckCommandRefuses: the check fails the commands kmsguard would refuse, on each kind of ground.
func TestCheckCommandRefuses(t *testing.T) {
	for _, s := range []struct {
		line, want string
	}{
		{"kmsguard verify --etcd-endpoints ... --resources secrets,configmaps", "the write key is required"},
		{"kmsguard verify --etcd-endpoints ... --write-provider identity --kek-id x --encryption-config c.yaml", "not both"},
		{"kmsguard verify --etcd-endpoint https://10.0.0.2:2379 --write-provider identity", "unknown flag: --etcd-endpoint"},
		{"kmsguard recover --operator kube-apiserver", "--operator must be one of"},
		{"kmsguard migrate --qps 0", "--qps must not be 0"},
		{"kmsguard verifiy --write-provider identity", `unknown command "verifiy"`},
		{"kmsguard status extra", "unknown command"},
	} {
		args := shellWords(s.line)
		err := checkCommand(args[1:])
		if err == nil || !strings.Contains(err.Error(), s.want) {
			t.Errorf("%q: %v, want an error with %q", s.line, err, s.want)
		}
	}
	for _, line := range []string{
		"kmsguard verify --etcd-endpoints ... --resources secrets --write-provider kms-v2:<provider>:<KEK id> ...",
		"/var/tmp/kmsguard recover --etcd-endpoints https://<node IP>:2379 --etcd-cert $DIR/tls.crt # dry run",
		"kmsguard recover --etcd-endpoints ... --confirm-data-loss=<provider>:<KEK id> --dry-run=false | tee out",
		"kmsguard status",
	} {
		args := shellWords(line)
		if err := checkCommand(args[1:]); err != nil {
			t.Errorf("%q (%q): %v", line, args, err)
		}
	}
}
