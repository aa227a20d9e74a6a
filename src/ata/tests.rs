//! Decoder tests against fixtures (fixtures/ata/, sources in fixtures/ata/README.md).
