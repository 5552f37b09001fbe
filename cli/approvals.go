package cli

import (
	"context"
	"encoding/json"
	"fmt"
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
		Args:  noArgs,
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
				t := Table{Columns: []string{"id", "type", "status", "requester", "account", "approvals", "created_at"}}
				for _, o := range ops {
					acct := o.SubAccountName
					if acct == "" {
						acct = "main account"
					}
					t.Rows = append(t.Rows, []string{o.ID.String(), o.OperationType, string(o.Status), o.RequesterEmail, acct,
						fmt.Sprintf("%d/%d", o.Approvals, o.MinApprovals), o.CreatedAt.UTC().Format(time.RFC3339)})
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
		Args:  exactArgs("OPERATION_ID"),
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
	add("approvals", fmt.Sprintf("%d of %d", o.Approvals, o.MinApprovals))
	add("created_at", o.CreatedAt.UTC().Format(time.RFC3339))
	for _, a := range o.Approvers {
		b, _ := json.Marshal(a)
		add("approver", string(b))
	}
	if len(o.DecodedQuote) > 0 {
		add("quote", string(o.DecodedQuote))
	}
	if len(o.Beneficiary) > 0 {
		add("beneficiary", string(o.Beneficiary))
	}
	if o.Reason != "" {
		add("reason", o.Reason)
	}
	return t
}
