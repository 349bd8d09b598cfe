CREATE TABLE IF NOT EXISTS orders (
    id bigserial PRIMARY KEY,
    account_id text NOT NULL,
    items jsonb NOT NULL,
    status text NOT NULL,
    total_minor bigint NOT NULL,
    tax_minor bigint NOT NULL DEFAULT 0,
    currency char(3) NOT NULL,
    shipment_id text,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS stock_holds (order_id bigint NOT NULL, sku text NOT NULL, quantity int NOT NULL);
CREATE TABLE IF NOT EXISTS refunds (id bigserial PRIMARY KEY, order_id bigint NOT NULL, amount_minor bigint NOT NULL, provider_ref text NOT NULL);
