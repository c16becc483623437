#!/bin/sh
echo tidy "$@"
