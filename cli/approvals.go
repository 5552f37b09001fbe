package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
)

// Approving and rejecting stay in the dashboard's inbox, behind a
// confirmation at a terminal: a flag that approves would let a script
// approve by accident, which multi-signature exists to prevent.

func newCmdApprovals(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "approvals",
		Short: "The multi-signature queue: list and show (approve and reject in the dashboard)",
		Args:  cobra.ArbitraryArgs,
		RunE:  GroupRunE("list or show (approve and reject are in the dashboard's inbox, with a confirmation)"),
	}
	cmd.AddCommand(newCmdApprovalsList(f), newCmdApprovalsShow(f))
	return cmd
}

func newCmdApprovalsList(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the operations waiting for your approval",
		Example: `  tesouro --profile approver approvals list
  tesouro --sandbox --as approver1 approvals list --jq length`,
		Args: noArgs,
	}
	out := addOutputFlags(cmd)
	limit := limitFlag(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		return f.run(cmd, func(ctx context.Context, s *session) error {
			ops, err := collect(ctx, *limit, s.client().ListApproverOperations)
			if err != nil {
				return err
			}
			return out.Write(f.Stdout, ops, func() Table {
				t := Table{Columns: []string{"id", "type", "status", "requester", "account", "approvals", "min_approvals", "created_at"}}
				for _, o := range ops {
					acct := o.SubAccountName
					if acct == "" {
						acct = "main account"
					}
					t.Rows = append(t.Rows, []string{o.ID.String(), o.OperationType, string(o.Status), o.RequesterEmail, acct,
						fmt.Sprint(o.Approvals), fmt.Sprint(o.MinApprovals), o.CreatedAt.UTC().Format(time.RFC3339)})
				}
				return t
			})
		})
	}
	return cmd
}

func newCmdApprovalsShow(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "show OPERATION_ID",
		Short: "Show an operation: what it would do, who asked, who approved",
		Example: `  tesouro --profile approver approvals show OPERATION_ID
  TESOURO_PROFILE=approver tesouro approvals show OPERATION_ID --json`,
		Args: exactArgs("OPERATION_ID"),
	}
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		id, err := parseID("operation", args[0])
		if err != nil {
			return err
		}
		return f.run(cmd, func(ctx context.Context, s *session) error {
			op, err := s.client().GetOperation(ctx, id)
			if err != nil {
				return err
			}
			return out.Write(f.Stdout, op, func() Table { return operationDetail(op) })
		})
	}
	return cmd
}

func operationDetail(o *api.Operation) Table {
	t := Table{Columns: []string{"field", "value"}}
	add := func(k, v string) { t.Rows = append(t.Rows, []string{k, v}) }
	add("id", o.ID.String())
	add("type", o.OperationType)
	add("status", string(o.Status))
	add("requester", o.RequesterEmail)
	add("account", o.SubAccountName)
	add("approvals", fmt.Sprint(o.Approvals))
	add("min_approvals", fmt.Sprint(o.MinApprovals))
	add("created_at", o.CreatedAt.UTC().Format(time.RFC3339))
	for i, a := range o.Approvers {
		k := fmt.Sprintf("approver.%d.", i+1)
		add(k+"email", a.Email)
		add(k+"approved", fmt.Sprint(a.HasApproved))
	}
	flatten("quote", o.DecodedQuote, add)
	flatten("beneficiary", o.Beneficiary, add)
	if o.Reason != "" {
		add("reason", o.Reason)
	}
	if o.RejectedBy != "" {
		add("rejected_by", o.RejectedBy)
	}
	return t
}

// flatten adds a JSON document as one row per value, named by its path
// (quote.inputAmount, beneficiary.address.city, approver.1.email): a table
// shows single values, never raw JSON. Numbers keep their exact text.
func flatten(prefix string, raw json.RawMessage, add func(k, v string)) {
	if len(raw) == 0 {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		add(prefix, string(raw))
		return
	}
	var walk func(k string, v any)
	walk = func(k string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, name := range slices.Sorted(maps.Keys(x)) {
				walk(k+"."+name, x[name])
			}
		case []any:
			for i, e := range x {
				walk(fmt.Sprintf("%s.%d", k, i+1), e)
			}
		case nil:
		case string:
			add(k, x)
		default:
			add(k, fmt.Sprint(x))
		}
	}
	walk(prefix, v)
}
