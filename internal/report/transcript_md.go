package report

import (
	"fmt"
	"io"
	"strconv"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/record"
)

// MaxMarkdownTranscripts is the most attempts whose transcript a Markdown
// report shows; the rest are counted.
const MaxMarkdownTranscripts = 50

// mdTextLimit is how many characters of one text (a model's turn, a tool
// result, a sampling answer) a Markdown transcript keeps.
const mdTextLimit = 500

// Transcripts are the attempts whose transcripts a Markdown report
// shows (WithTranscripts), and how many more the run holds.
type Transcripts struct {
	Attempts []record.Attempt
	// More counts the run's attempts left out.
	More int
}

// WithTranscripts shows, folded away under the Markdown report, the
// transcript of each attempt of t: every turn's text, each tool call with
// its result and what the server asked while it ran (sampling requests
// with the model's answers, elicitations with the answers given,
// notifications), and the user's turns.
func WithTranscripts(t *Transcripts) Option {
	return func(o *options) { o.transcripts = t }
}

// markdownTranscripts writes t's transcripts, folded away.
func markdownTranscripts(w io.Writer, res *grade.Result, t *Transcripts) {
	if t == nil || len(t.Attempts) == 0 {
		return
	}
	outcome := map[record.AttemptKey]grade.Outcome{}
	for _, a := range res.Attempts {
		outcome[record.AttemptKey{Case: a.Case, N: a.N}] = a.Outcome
	}
	fmt.Fprintf(w, "\n<details><summary>Transcripts (%d)</summary>\n\n", len(t.Attempts))
	for i := range t.Attempts {
		a := &t.Attempts[i]
		fmt.Fprintf(w, "#### %s #%d", format.CodeSpan(a.Case), a.N)
		if o := outcome[record.AttemptKey{Case: a.Case, N: a.N}]; o != "" {
			fmt.Fprintf(w, " (%s)", o)
		}
		fmt.Fprintf(w, "\n\n- **prompt:** %s\n", mdCut(a.Prompt))
		for j, turn := range a.Turns {
			mdTurn(w, j+1, turn)
		}
		fmt.Fprintf(w, "- **answer** (%s): %s\n\n", mdText(a.End), mdCut(a.Answer))
	}
	if t.More > 0 {
		fmt.Fprintf(w, "%s more not shown (mcpeval report --html shows every transcript).\n\n", format.N(t.More, "attempt"))
	}
	fmt.Fprint(w, "</details>\n")
}

// mdTurn writes one model turn: its text, its calls with what the server
// asked during each, and the user's reply after it.
func mdTurn(w io.Writer, n int, t record.Turn) {
	fmt.Fprintf(w, "- **turn %d** (%d in, %d out)", n, t.Usage.Input, t.Usage.Output)
	if t.Text != "" {
		fmt.Fprintf(w, ": %s", mdCut(t.Text))
	}
	fmt.Fprintln(w)
	for _, c := range t.Calls {
		fmt.Fprintf(w, "  - call %s %s", format.CodeSpan(c.Name), format.CodeSpan(string(c.Args)))
		switch {
		case !c.Shown:
			fmt.Fprint(w, ": a tool the model was not shown, not sent")
		case c.NotSent:
			fmt.Fprint(w, ": asserted, not sent")
		case c.Rejected != "":
			fmt.Fprintf(w, ": rejected by the server: %s", mdCut(c.Rejected))
		case c.IsError:
			fmt.Fprintf(w, " → tool error: %s", mdCut(c.Result))
		default:
			fmt.Fprintf(w, " → %s", mdCut(c.Result))
		}
		fmt.Fprintln(w)
		mdAsked(w, c)
	}
	if u := t.User; u != nil {
		approves := ""
		if u.Approves {
			approves = ", approving"
		}
		fmt.Fprintf(w, "- **user** (the case's turn %d%s): %s\n", u.Entry, approves, mdCut(u.Text))
	}
}

// mdAsked writes what the server asked while call c ran: its sampling
// requests with the answers, its elicitations with the answers given,
// then its notifications.
func mdAsked(w io.Writer, c record.Call) {
	for _, s := range c.Sampling {
		by := "the model under test"
		if s.Model != nil {
			by = format.CodeSpan(s.Model.Spec)
		}
		fmt.Fprintf(w, "    - **sampling** answered by %s", by)
		if s.MaxTokens > 0 {
			fmt.Fprintf(w, " (at most %d tokens)", s.MaxTokens)
		}
		fmt.Fprintln(w)
		if s.System != "" {
			fmt.Fprintf(w, "      - system: %s\n", mdCut(s.System))
		}
		for _, m := range s.Messages {
			fmt.Fprintf(w, "      - %s: %s\n", mdText(m.Role), mdCut(m.Text))
		}
		if s.Error != "" {
			fmt.Fprintf(w, "      - **sampling error:** %s\n", mdCut(s.Error))
			continue
		}
		fmt.Fprintf(w, "      - answer (%d in, %d out): %s\n", s.Turn.Usage.Input, s.Turn.Usage.Output, mdCut(s.Turn.Text))
	}
	for _, e := range c.Elicitations {
		fmt.Fprintf(w, "    - **elicitation:** %s\n", mdCut(e.Message))
		fmt.Fprintf(w, "      - answer: **%s**", mdText(e.Action))
		if len(e.Content) > 0 {
			fmt.Fprintf(w, " %s", format.CodeSpan(string(e.Content)))
		}
		if e.Note != "" {
			fmt.Fprintf(w, " (%s)", mdText(e.Note))
		}
		fmt.Fprintln(w)
	}
	for _, n := range c.Notes {
		fmt.Fprintf(w, "    - note: %s\n", mdCut(n.Line()))
	}
	if c.NotesDropped > 0 {
		fmt.Fprintf(w, "    - %s more dropped\n", format.N(c.NotesDropped, "notification"))
	}
}

// mdCut is text made safe for a Markdown list item, cut to mdTextLimit
// characters.
func mdCut(s string) string {
	r := []rune(s)
	if len(r) <= mdTextLimit {
		return mdText(s)
	}
	return mdText(string(r[:mdTextLimit])) + " … (" + strconv.Itoa(len(r)-mdTextLimit) + " more characters)"
}
