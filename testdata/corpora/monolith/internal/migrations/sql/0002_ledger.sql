CREATE TABLE IF NOT EXISTS ledger_entries (
    id bigserial PRIMARY KEY,
    account_id text NOT NULL,
    amount_minor bigint NOT NULL,
    currency char(3) NOT NULL,
    memo text NOT NULL DEFAULT '',
    idempotency_key text UNIQUE,
    at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS invoices (
    id text PRIMARY KEY,
    account_id text NOT NULL,
    amount_minor bigint NOT NULL,
    currency char(3) NOT NULL,
    status text NOT NULL,
    issued_at timestamptz NOT NULL DEFAULT now(),
    due_at timestamptz NOT NULL
);
