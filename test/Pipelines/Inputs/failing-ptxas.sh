#!/bin/sh
# An assembler older than the PTX ISA of the module: refuses every input.
echo "ptxas fatal   : Unsupported .version 8.7; current version is '7.4'" >&2
exit 1
