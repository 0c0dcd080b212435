// Card Services API starter client: the command line (client.go is the client). See README.md.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

const usage = `usage: go run . token
       go run . balance CARD [--location ID]
       go run . gift CARD [--location ID] [--request-id ID]
       go run . lookup REQUEST_ID`

type usageError struct{ message string }

func (e *usageError) Error() string { return e.message }

type command struct {
	name, argument string
	options        map[string]string
}

func parseArgs(argv []string) (*command, error) {
	allowed := map[string][]string{
		"token": {}, "balance": {"--location"}, "gift": {"--location", "--request-id"}, "lookup": {},
	}
	if len(argv) == 0 {
		return nil, &usageError{"unknown command: (none)"}
	}
	options, ok := allowed[argv[0]]
	if !ok {
		return nil, &usageError{"unknown command: " + argv[0]}
	}
	parsed := &command{name: argv[0], options: map[string]string{}}
	var positional []string
	for i := 1; i < len(argv); i++ {
		if !strings.HasPrefix(argv[i], "--") {
			positional = append(positional, argv[i])
			continue
		}
		if !contains(options, argv[i]) || i+1 >= len(argv) {
			return nil, &usageError{"bad option " + argv[i]}
		}
		parsed.options[strings.TrimPrefix(argv[i], "--")] = argv[i+1]
		i++
	}
	want := 1
	if parsed.name == "token" {
		want = 0
	}
	if len(positional) != want {
		return nil, &usageError{"wrong arguments for " + parsed.name}
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

// The printed shapes, fields in the contract's order; a nil pointer prints as null.
type callOutput struct {
	Status    *int          `json:"status"`
	RequestID *string       `json:"request_id"`
	Body      interface{}   `json:"body"`
	Stage     string        `json:"stage,omitempty"`
	TimedOut  bool          `json:"timed_out,omitempty"`
	Lookup    *answerOutput `json:"lookup,omitempty"`
}

type answerOutput struct {
	Status *int        `json:"status"`
	Body   interface{} `json:"body"`
}

type tokenOutput struct {
	TokenType string `json:"token_type"`
	Scope     string `json:"scope"`
	ExpiresAt string `json:"expires_at"`
	ExpiresIn int64  `json:"expires_in"`
}

func outputOf(answer *Answer, requestID *string) *callOutput {
	return &callOutput{Status: &answer.Status, RequestID: requestID, Body: answer.Body, Stage: answer.Stage}
}

func runCommand(client *Client, cmd *command) (interface{}, error) {
	location := cmd.options["location"]
	switch cmd.name {
	case "token":
		token, refused, err := client.GetToken()
		if err != nil {
			return nil, err
		}
		if refused != nil {
			return &answerOutput{Status: &refused.Status, Body: refused.Body}, nil
		}
		left := int64(token.Left() / time.Second)
		if left < 0 {
			left = 0
		}
		return &tokenOutput{token.TokenType, token.Scope, token.ExpiresAt, left}, nil
	case "balance":
		answer, err := client.Balance(cmd.argument, location)
		if err != nil {
			return nil, err
		}
		return outputOf(answer, nil), nil
	case "lookup":
		answer, err := client.Lookup(cmd.argument)
		if err != nil {
			return nil, err
		}
		return outputOf(answer, &cmd.argument), nil
	}
	result, err := client.Gift(cmd.argument, location, cmd.options["request-id"])
	if err != nil {
		return nil, err
	}
	if !result.TimedOut {
		return outputOf(result.Answer, &result.RequestID), nil
	}
	lookup := &answerOutput{Status: &result.Lookup.Status, Body: result.Lookup.Body}
	return &callOutput{RequestID: &result.RequestID, TimedOut: true, Lookup: lookup}, nil
}

// run runs one command and returns the exit code.
func run(argv []string, getenv func(string) string, stdout, stderr io.Writer) int {
	cmd, err := parseArgs(argv)
	if err != nil {
		fmt.Fprintf(stderr, "error: %s\n%s\n", err, usage)
		return 2
	}
	config, err := LoadConfig(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "error: %s\n", err)
		return 1
	}
	output, err := runCommand(NewClient(config), cmd)
	if err != nil {
		fmt.Fprintf(stderr, "error: %s\n", err)
		return 1
	}
	encoder := json.NewEncoder(stdout)
	// The answer's text as the API sent it: no \u003c for '<' and the like.
	encoder.SetEscapeHTML(false)
	if err := encoder.Encode(output); err != nil {
		fmt.Fprintf(stderr, "error: %s\n", err)
		return 1
	}
	return 0
}

func main() {
	os.Exit(run(os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}
