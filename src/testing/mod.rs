//! Test support: a scripted drive for the erase jobs' tests. Used by the library's unit tests
//! and by the binary's (which link the library as built, without `cfg(test)`), so it is
//! compiled in, hidden from the docs and not part of the API.

pub mod mockdrive;
