// Command migrate applies the SQL migrations in a directory, in file-name
// order, each in its own transaction, after taking a schema backup.
package main

import (
	"bytes"
	"database/sql"
	"flag"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"example.test/mature/internal/platform/sqlutil"
)

func main() {
	dsn := flag.String("dsn", os.Getenv("INVENTORY_DSN"), "Postgres DSN")
	dir := flag.String("dir", "migrations", "directory of NNN_name.sql files")
	backup := flag.String("backup", "", "write a schema-only pg_dump here first")
	notify := flag.String("notify", "", "chat webhook to notify when done")
	flag.Parse()

	db, err := sql.Open("pgx", *dsn)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	if err := db.Ping(); err != nil { // OK
		log.Fatalf("database not reachable: %v", err)
	}

	if *backup != "" {
		out, err := exec.Command("pg_dump", "--schema-only", *dsn).Output() // OK
		if err != nil {
			log.Fatalf("pg_dump: %v", err)
		}
		if err := os.WriteFile(*backup, out, 0o600); err != nil {
			log.Fatal(err)
		}
	}

	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil { // OK
		log.Fatal(err)
	}
	applied := map[string]bool{}
	rows, err := db.Query(`SELECT version FROM schema_migrations`) // OK
	if err != nil {
		log.Fatal(err)
	}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			log.Fatal(err)
		}
		applied[v] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		log.Fatal(err)
	}

	files, err := filepath.Glob(filepath.Join(*dir, "*.sql"))
	if err != nil {
		log.Fatal(err)
	}
	sort.Strings(files)
	var done []string
	for _, f := range files {
		version := strings.TrimSuffix(filepath.Base(f), ".sql")
		if applied[version] {
			continue
		}
		body, err := os.ReadFile(f)
		if err != nil {
			log.Fatal(err)
		}
		tx, err := db.Begin() // OK
		if err != nil {
			log.Fatal(err)
		}
		if _, err := tx.Exec(string(body)); err != nil { // OK
			_ = tx.Rollback()
			log.Fatalf("%s: %v", version, err)
		}
		if _, err := tx.Exec(`INSERT INTO schema_migrations (version) VALUES ($1)`, version); err != nil {
			_ = tx.Rollback()
			log.Fatalf("%s: %v", version, err)
		}
		if err := tx.Commit(); err != nil {
			log.Fatalf("%s: %v", version, err)
		}
		done = append(done, version)
		log.Printf("applied %s", version)
	}

	// The storefront smoke test looks up the sentinel row.
	ok, err := sqlutil.Exists(db, `SELECT 1 FROM items WHERE sku = $1`, "__sentinel__") // OK
	if err != nil {
		log.Fatal(err)
	}
	if !ok {
		if _, err := db.Exec(`INSERT INTO items (sku, name, warehouse, quantity) VALUES ('__sentinel__', 'sentinel', 'none', 0)`); err != nil {
			log.Fatal(err)
		}
	}

	if *notify != "" && len(done) > 0 {
		form := url.Values{"text": {fmt.Sprintf("migrations applied: %s", strings.Join(done, ", "))}}
		resp, err := http.Post(*notify, "application/x-www-form-urlencoded", bytes.NewBufferString(form.Encode())) // OK
		if err != nil {
			log.Printf("notify: %v", err)
			return
		}
		resp.Body.Close()
	}
}
