"""MINDIR, MindSpore's protobuf graph format: the schema, a reader, an interpreter and a
writer."""
