"""Protobuf schemas written as data, and the private descriptor pools built from them (no protoc, no generated code)."""
