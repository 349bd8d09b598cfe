package catalog

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strconv"
	"time"

	catalogv1 "example.test/monolith/gen/catalog/v1"
	"example.test/monolith/internal/platform/audit"
	"example.test/monolith/internal/repository"
	"example.test/monolith/internal/service/catalogsvc"
)

const importBatch = 200

type importHandlers struct {
	svc   *catalogsvc.Service
	audit *audit.Writer
	log   *slog.Logger
}

func (h *importHandlers) ImportProducts(stream catalogv1.CatalogService_ImportProductsServer) error {
	ctx := stream.Context()
	var imported, skipped int
	batch := make([]repository.Product, 0, importBatch)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		n, s, err := h.svc.UpsertBatch(ctx, batch) // OK
		imported, skipped = imported+n, skipped+s
		batch = batch[:0]
		return err
	}
	for {
		p, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		batch = append(batch, *productFromProto(p))
		if len(batch) == importBatch {
			if err := flush(); err != nil {
				return toStatus(err)
			}
		}
	}
	if err := flush(); err != nil {
		return toStatus(err)
	}

	if imported > 0 {
		go h.svc.RefreshSearchIndex(context.Background()) // BUG: ctxbackground
	}

	// The import summary is part of the compliance trail and must be written even when the
	// uploader disconnects right after the last batch.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second) // OK
	defer cancel()
	if err := h.audit.Write(sctx, audit.Entry{ // OK
		Action: "catalog.import", Outcome: "ok",
		Meta: map[string]string{"imported": strconv.Itoa(imported), "skipped": strconv.Itoa(skipped)},
	}); err != nil {
		h.log.WarnContext(ctx, "import audit row not written", "err", err)
	}
	return stream.SendAndClose(&catalogv1.ImportProductsResponse{Imported: int32(imported), Skipped: int32(skipped)})
}
