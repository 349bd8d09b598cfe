package inventory

import (
	"encoding/json"

	inventoryv1 "example.test/mature/gen/inventory/v1"
	"example.test/mature/internal/store"
)

const (
	defaultPageSize = 50
	maxPageSize     = 500
	maxBatch        = 200
)

func itemKey(sku string) string { return "inventory:item:" + sku }

func encodeItem(it store.Item) ([]byte, error) { return json.Marshal(it) }

func decodeItem(b []byte) (store.Item, error) {
	var it store.Item
	err := json.Unmarshal(b, &it)
	return it, err
}

func toProto(it store.Item) *inventoryv1.Item {
	return &inventoryv1.Item{
		Sku:            it.SKU,
		Name:           it.Name,
		Warehouse:      it.Warehouse,
		Quantity:       it.Quantity,
		UnitPriceCents: it.UnitPriceCents,
	}
}

func fromProto(it *inventoryv1.Item) store.Item {
	return store.Item{
		SKU:            it.GetSku(),
		Name:           it.GetName(),
		Warehouse:      it.GetWarehouse(),
		Quantity:       it.GetQuantity(),
		UnitPriceCents: it.GetUnitPriceCents(),
	}
}

func clampPageSize(n int32) int {
	switch {
	case n <= 0:
		return defaultPageSize
	case n > maxPageSize:
		return maxPageSize
	}
	return int(n)
}
