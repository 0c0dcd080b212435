// Command cardapiclient is the Card Services API starter client's command line; package cardapi is the client.
// See README.md.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"cardapiclient/cardapi"
)

const usage = `usage: go run . token
       go run . balance CARD [--location ID]
       go run . gift CARD [--location ID] [--request-id ID]
       go run . lookup REQUEST_ID`

type command struct {
	name, argument string
	options        map[string]string
}

func parseArgs(argv []string) (*command, error) {
	allowed := map[string][]string{
		"token": {}, "balance": {"--location"}, "gift": {"--location", "--request-id"}, "lookup": {},
	}
	if len(argv) == 0 {
		return nil, errors.New("unknown command: (none)")
	}
	options, ok := allowed[argv[0]]
	if !ok {
		return nil, errors.New("unknown command: " + argv[0])
	}
	parsed := &command{name: argv[0], options: map[string]string{}}
	var positional []string
	for i := 1; i < len(argv); i++ {
		if !strings.HasPrefix(argv[i], "--") {
			positional = append(positional, argv[i])
			continue
		}
		if !contains(options, argv[i]) || i+1 >= len(argv) {
			return nil, errors.New("bad option " + argv[i])
		}
		parsed.options[strings.TrimPrefix(argv[i], "--")] = argv[i+1]
		i++
	}
	want := 1
	if parsed.name == "token" {
		want = 0
	}
	if len(positional) != want {
		return nil, errors.New("wrong arguments for " + parsed.name)
	}
	if want == 1 {
		parsed.argument = positional[0]
	}
	return parsed, nil
}

func contains(list []string, item string) bool {
	for _, each := range list {
		if each == item {
			return true
		}
	}
	return false
}

// output is the printed shape, fields in the contract's order; a nil pointer prints as null.
type output struct {
	Status        *int              `json:"status"`
	RequestID     *string           `json:"request_id"`
	TransactionID *string           `json:"transaction_id"`
	Body          any               `json:"body"`
	Location      string            `json:"location,omitempty"`
	Stage         string            `json:"stage,omitempty"`
	TimedOut      bool              `json:"timed_out,omitempty"`
	Lookup        *cardapi.Exchange `json:"lookup,omitempty"`
	Resent        *cardapi.Exchange `json:"resent,omitempty"`
}

// tokenOutput is the token's metadata: never the token itself.
type tokenOutput struct {
	TokenType string `json:"token_type"`
	Scope     string `json:"scope"`
	ExpiresAt string `json:"expires_at"`
	ExpiresIn int64  `json:"expires_in"`
}

func nonEmpty(text string) *string {
	if text == "" {
		return nil
	}
	return &text
}

func printed(result *cardapi.Result, stage string) *output {
	return &output{result.Status, nonEmpty(result.RequestID), nonEmpty(result.TransactionID), result.Body,
		result.Location, stage, result.TimedOut, result.Lookup, result.Resent}
}

func runCommand(ctx context.Context, client *cardapi.Client, cmd *command) (any, error) {
	location := cmd.options["location"]
	var result *cardapi.Result
	var err error
	switch cmd.name {
	case "token":
		token, err := client.Token(ctx)
		if err != nil {
			return nil, err
		}
		left := int64(token.Left() / time.Second)
		if left < 0 {
			left = 0
		}
		return &tokenOutput{token.TokenType, token.Scope, token.ExpiresAt, left}, nil
	case "balance":
		result, err = client.Balance(ctx, cmd.argument, location)
	case "lookup":
		result, err = client.Lookup(ctx, cmd.argument)
	default:
		result, err = client.Gift(ctx, cmd.argument, location, cmd.options["request-id"])
	}
	if err != nil {
		return nil, err
	}
	return printed(result, ""), nil
}

// run runs one command and returns the exit code (0 answered, 1 no answer or no patience, 2 usage).
func run(ctx context.Context, argv []string, getenv func(string) string, stdout, stderr io.Writer) int {
	cmd, err := parseArgs(argv)
	if err != nil {
		fmt.Fprintf(stderr, "error: %s\n%s\n", err, usage)
		return 2
	}
	config, err := cardapi.LoadConfig(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "error: %s\n", err)
		return 1
	}
	out, err := runCommand(ctx, cardapi.New(config), cmd)
	var declined *cardapi.DeclinedError
	var refused *cardapi.RefusedError
	switch {
	case errors.As(err, &declined):
		out = printed(declined.Result, "")
	case errors.As(err, &refused):
		out = printed(refused.Result, refused.Stage)
	case err != nil:
		// No answer, an unknown outcome, no patience, a cache that cannot be written: the reason, no trace.
		fmt.Fprintf(stderr, "error: %s%s\n", err, requestIDHint(err))
		return 1
	}
	encoder := json.NewEncoder(stdout)
	// The answer's text as the API sent it: no \u003c for '<' and the like.
	encoder.SetEscapeHTML(false)
	if err := encoder.Encode(out); err != nil {
		fmt.Fprintf(stderr, "error: %s\n", err)
		return 1
	}
	return 0
}

func requestIDHint(err error) string {
	var unknown *cardapi.OutcomeUnknownError
	var unreachable *cardapi.UnreachableError
	id := ""
	if errors.As(err, &unknown) {
		id = unknown.RequestID
	} else if errors.As(err, &unreachable) {
		id = unreachable.RequestID
	}
	if id == "" {
		return ""
	}
	if unknown != nil {
		return fmt.Sprintf(" (Request Id %s: learn its outcome with `lookup %s`)", id, id)
	}
	return fmt.Sprintf(" (Request Id %s)", id)
}

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}
