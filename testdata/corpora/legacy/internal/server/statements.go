package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	loyaltyv1 "example.test/legacy/gen/loyalty/v1"
	"example.test/legacy/internal/db"
	"example.test/legacy/internal/util"
)

var statementTmpl = template.Must(template.New("statement").Parse(`<html><body>
<h1>{{.Name}} — {{.Month}}</h1>
<p>Tier: {{.Tier}} · Balance: {{.Points}} points{{if .Value}} (≈ {{printf "%.2f" .Value}} {{.Currency}}){{end}}</p>
<p>{{.Count}} transactions in total</p>
<table>{{range .Lines}}<tr><td>{{.Date}}</td><td>{{.Kind}}</td><td>{{.Points}}</td><td>{{.Ref}}</td></tr>{{end}}</table>
</body></html>`))

type statementLine struct {
	Date   string
	Kind   string
	Points int64
	Ref    string
}

func (s *Server) ExportStatement(ctx context.Context, req *loyaltyv1.ExportStatementRequest) (*loyaltyv1.Statement, error) {
	id := strings.TrimSpace(req.GetMemberId())
	month := req.GetMonth()
	start, err := time.Parse("2006-01", month)
	if id == "" || err != nil {
		return nil, status.Error(codes.InvalidArgument, "member_id and month (YYYY-MM) are required")
	}
	format := strings.ToLower(req.GetFormat())
	if format == "" {
		format = "pdf"
	}
	if format != "pdf" && format != "html" {
		return nil, status.Errorf(codes.InvalidArgument, "unsupported format %q", format)
	}

	m, err := s.store.Load(ctx, id) // OK
	if errors.Is(err, db.ErrNotFound) {
		return nil, status.Errorf(codes.NotFound, "member %s not found", id)
	}
	if err != nil {
		logger.Printf("ExportStatement %s: %v", id, err)
		return nil, status.Error(codes.Internal, "could not load member")
	}

	count, err := db.CountTxns(id) // OK
	if err != nil {
		logger.Printf("ExportStatement %s: count: %v", id, err)
	}

	rows, err := s.db.QueryContext(ctx,
		`SELECT created_at, kind, points, coalesce(reference, '') FROM transactions
		  WHERE member_id = $1 AND created_at >= $2 AND created_at < $3 ORDER BY created_at`,
		id, start, start.AddDate(0, 1, 0))
	if err != nil {
		logger.Printf("ExportStatement %s: %v", id, err)
		return nil, status.Error(codes.Internal, "could not read transactions")
	}
	var lines []statementLine
	for rows.Next() {
		var l statementLine
		var at time.Time
		if err := rows.Scan(&at, &l.Kind, &l.Points, &l.Ref); err != nil {
			rows.Close()
			return nil, status.Error(codes.Internal, "could not read transactions")
		}
		l.Date = at.Format("02 Jan")
		lines = append(lines, l)
	}
	rows.Close()

	currency := "EUR"
	if strings.HasPrefix(m.PartnerCode, "uk-") {
		currency = "GBP"
	}
	var value float64
	if rate, err := util.FetchRate(currency); err == nil { // OK
		value = float64(m.Points) * rate
	}

	var html bytes.Buffer
	err = statementTmpl.Execute(&html, map[string]any{
		"Name": m.Name, "Month": start.Format("January 2006"), "Tier": m.Tier, "Points": m.Points,
		"Value": value, "Currency": currency, "Count": count, "Lines": lines,
	})
	if err != nil {
		logger.Printf("ExportStatement %s: render: %v", id, err)
		return nil, status.Error(codes.Internal, "could not render statement")
	}
	if format == "html" {
		return &loyaltyv1.Statement{MemberId: id, Pdf: html.Bytes()}, nil
	}

	cmd := exec.Command("wkhtmltopdf", "--quiet", "--encoding", "utf-8", "-", "-") // BUG: ctxless
	cmd.Stdin = &html
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	pdf, err := cmd.Output()
	if err != nil {
		logger.Printf("ExportStatement %s: wkhtmltopdf: %v: %s", id, err, stderr.String())
		return nil, status.Error(codes.Internal, "could not render pdf")
	}

	// keep a copy in the document store so support can resend it
	path := fmt.Sprintf("%s/statements/%s/%s.pdf", docStoreURL, id, month)
	up, err := http.NewRequest(http.MethodPut, path, bytes.NewReader(pdf)) // BUG: ctxless
	if err != nil {
		return nil, status.Error(codes.Internal, "could not store statement")
	}
	up.Header.Set("Content-Type", "application/pdf")
	resp, err := httpClient.Do(up)
	if err != nil {
		logger.Printf("ExportStatement %s: docstore: %v", id, err)
		return &loyaltyv1.Statement{MemberId: id, Pdf: pdf}, nil
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 256))
		logger.Printf("ExportStatement %s: docstore: %s: %s", id, resp.Status, b)
		return &loyaltyv1.Statement{MemberId: id, Pdf: pdf}, nil
	}
	return &loyaltyv1.Statement{MemberId: id, Url: path, Pdf: pdf}, nil
}
