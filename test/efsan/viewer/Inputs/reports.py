"""The JSON reports of a file: one or more documents one after another (a
program that forks writes one per process)."""
import json


def load(path):
    text = open(path).read()
    dec = json.JSONDecoder()
    docs, pos = [], 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            return docs
        doc, pos = dec.raw_decode(text, pos)
        docs.append(doc)
