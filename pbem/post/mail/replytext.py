"""The part of a reply the player wrote: above (or below) the quoted original, without greeting or signature.

Mail programs quote in their own ways: ``>`` marks; an attribution line ("On … wrote:", "Am … schrieb …:",
"Le … a écrit :", ...); Outlook's "From: … Sent: …" block under a rule of underscores; Apple Mail's, Yahoo's and
Samsung's quotes without any ``>``; HTML replies whose quote is a ``blockquote`` or a ``div`` of the program's
own class. The attribution lines and Outlook blocks of many languages are found with mail-parser-reply's
patterns; ours add what they miss (Spanish attributions, attributions wrapped over two lines, the translated
"Original message" rules, attributions that end in a non-breaking space and colon). HTML is made text with the
quoted parts marked ``>`` as a plain-text quote would be, so both are read alike, top or bottom posted.
"""

from __future__ import annotations

import re
from email.message import EmailMessage
from functools import lru_cache
from html.parser import HTMLParser

from mailparser_reply import EmailMessage as ReplyParser

MAX_COMMANDS = 20
LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "da", "sv"]

# "wrote" in the attribution lines mail programs write before a quote
WROTE = (r"wrote|writes|schrieb|geschrieben|a écrit|a ecrit|écrit|escribió|escribio|ha scritto|scrisse|schreef|"
         r"geschreven|skrev|kirjoitti|escreveu|napisał")
ATTRIBUTION = re.compile(rf"^.{{0,300}}\b(?:{WROTE})\b[^:]{{0,200}}:$", re.I)
ORIGINAL_RULE = re.compile(r"^[-_=]{2,}\s*[^-_=]{3,60}?\s*[-_=]{2,}$")  # -----Original Message----- in any language
UNDERSCORES = re.compile(r"^_{10,}$")  # Outlook's rule above its header block
HEADER_LABEL = re.compile(r"^\*?(from|von|de|da|van|fra|från|od|sent|gesendet|envoyé|enviado|enviado el|inviato|"
                          r"verzonden|sendt|skickat|date|datum|fecha|data|dato)\s?\*?:", re.I)
SENT_FROM = re.compile(
    r"^(sent from|sent with|sent via|get outlook|gesendet von|von meinem .* gesendet|outlook für|envoyé de|"
    r"envoyé depuis|obtenir outlook|enviado desde|enviado con|obtener outlook|inviato da|inviato dal|"
    r"scarica outlook|"
    r"verzonden (met|vanaf|van)|verstuurd (vanaf|met)|outlook voor|sendt fra|hent outlook|skickat från|"
    r"skaffa outlook)\b", re.I)
CLOSINGS = {
    "thanks", "thank you", "thx", "cheers", "best", "best regards", "regards", "kind regards", "warm regards",
    "all the best", "best wishes", "yours", "love", "ta", "bye", "see you",
    "gruß", "grüße", "gruss", "gruesse", "viele grüße", "liebe grüße", "lg", "vg", "beste grüße", "mfg",
    "mit freundlichen grüßen", "danke", "bis bald", "ciao", "tschüss",
    "merci", "cordialement", "bien à vous", "amitiés", "à bientôt", "bises", "salutations", "bonne journée",
    "saludos", "un saludo", "gracias", "atentamente", "un abrazo", "hasta luego",
    "grazie", "saluti", "cordiali saluti", "un saluto", "a presto",
    "groeten", "groet", "met vriendelijke groet", "hartelijke groet", "bedankt", "dank je", "tot ziens", "mvg",
    "hilsen", "venlig hilsen", "med venlig hilsen", "mvh", "tak", "kh", "vh",
    "hälsningar", "vänliga hälsningar", "med vänliga hälsningar", "tack", "ha det bra", "mvh", "kram",
}
GREETING = re.compile(r"^(hi|hello|hey|dear|hallo|hallo zusammen|liebe[rs]?|moin|servus|guten tag|bonjour|salut|"
                      r"coucou|hola|buenas|buenos días|ciao|salve|buongiorno|hoi|beste|goedemiddag|goedemorgen|hej|"
                      r"hejsan|kære|god ?morgen|goddag|tjena)\b[^.]{0,40}[,!:]?$", re.I)


@lru_cache(maxsize=1)
def _library_headers() -> re.Pattern[str]:
    """mail-parser-reply's attribution and header-block patterns for our languages, compiled once."""
    return ReplyParser(text="", languages=list(LANGUAGES)).HEADER_REGEX  # type: ignore[no-any-return]


class _TextFromHTML(HTMLParser):
    """Lines of text from HTML: each block on its own line, quoted parts marked ``> ``, signatures left out."""

    BLOCKS = {"p", "div", "li", "tr", "h1", "h2", "h3", "h4", "table", "ul", "ol", "pre", "hr", "blockquote"}
    VOID = {"br", "img", "hr", "meta", "link", "input", "col", "area", "base", "wbr"}
    SKIP = {"style", "script", "head", "title"}
    QUOTE_CLASSES = ("gmail_quote", "yahoo_quoted", "moz-cite-prefix", "protonmail_quote", "quote", "ms-outlook")
    SIGNATURE = ("gmail_signature", "moz-signature", "protonmail_signature", "signature")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[list[str]] = [[]]
        self.quoted: list[bool] = [False]
        self.stack: list[tuple[str, int, int]] = []  # tag, quoting it adds, skipping it adds
        self.quote_depth = 0
        self.skip_depth = 0
        self.rest_quoted = False  # Outlook: everything after its reply header is the original
        self.pre = 0

    def _newline(self) -> None:
        if self.lines[-1]:
            self.lines.append([])
            self.quoted.append(False)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        marks = " ".join(filter(None, (found.get("class"), found.get("id")))).lower()
        style = (found.get("style") or "").replace(" ", "").lower()
        if found.get("id") in ("divRplyFwdMsg", "appendonsend") or (
                tag == "div" and "border-top:solid" in style and "padding:3.0pt" in style) or (
                tag == "hr" and (found.get("id") == "stopSpelling" or "display:inline-block" in style)):
            self.rest_quoted = True
        quote = int(tag == "blockquote" or any(c in marks for c in self.QUOTE_CLASSES))
        skip = int(tag in self.SKIP or any(c in marks for c in self.SIGNATURE))
        if tag in self.BLOCKS or tag == "br":
            self._newline() if tag != "br" else self._break()
        if tag == "pre":
            self.pre += 1
        if tag not in self.VOID:
            self.stack.append((tag, quote, skip))
            self.quote_depth += quote
            self.skip_depth += skip

    def _break(self) -> None:
        if self.skip_depth:
            return
        self.lines.append([])
        self.quoted.append(False)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        while self.stack:  # close up to the matching tag: mail HTML is often not well nested
            name, quote, skip = self.stack.pop()
            self.quote_depth -= quote
            self.skip_depth -= skip
            if name == "pre":
                self.pre -= 1
            if name == tag:
                break
        if tag in self.BLOCKS:
            self._newline()

    def handle_data(self, data: str) -> None:
        if self.skip_depth:
            return
        if not self.pre:
            data = re.sub(r"\s+", " ", data)
        parts = data.split("\n")
        for number, part in enumerate(parts):
            if number:
                self._break()
            if part.strip():
                if self.quote_depth or self.rest_quoted:
                    self.quoted[-1] = True
                self.lines[-1].append(part)

    def text(self) -> str:
        out = []
        for words, quoted in zip(self.lines, self.quoted):
            line = " ".join("".join(words).split())
            out.append(("> " + line) if quoted else line)
        return "\n".join(out).strip("\n")


def html_to_text(html: str) -> str:
    """The text of an HTML reply, its quoted parts marked ``> `` as a plain-text reply would have them."""
    parser = _TextFromHTML()
    parser.feed(html)
    parser.close()
    return parser.text()


def written_text(message: EmailMessage) -> str:
    """The text of a reply: its plain part, or its HTML part made text."""
    part = message.get_body(preferencelist=("plain",))
    if part is not None:
        return str(part.get_content())
    part = message.get_body(preferencelist=("html",))
    return html_to_text(str(part.get_content())) if part is not None else ""


def _normal(line: str) -> str:
    return " ".join(line.replace("\u00a0", " ").replace("\u202f", " ").replace("\u200b", "").split())


def _quote_starts(lines: list[str]) -> set[int]:
    """The lines where a quoted original begins without ``>`` marks: attributions, Outlook blocks, rules."""
    starts: set[int] = set()
    text = "\n".join(lines)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    for match in _library_headers().finditer(text):
        at = match.start()
        while at < len(text) and text[at] == "\n":
            at += 1
        starts.add(max(i for i, offset in enumerate(offsets) if offset <= at))
    for number, line in enumerate(lines):
        bare = line.lstrip("> ").strip()
        following = lines[number + 1].lstrip("> ").strip() if number + 1 < len(lines) else ""
        # an attribution a mail program wrapped: a long first line with a date or an address, the rest below it
        wrapped = (len(bare) >= 25 and not bare.endswith(":") and bool(re.search(r"\d|@", bare))
                   and following.endswith(":") and len(following) <= 80 and not ATTRIBUTION.match(following)
                   and bool(ATTRIBUTION.match(f"{bare} {following}")))
        if ATTRIBUTION.match(bare) or wrapped:  # an attribution, or one a mail program wrapped over two lines
            starts.add(number)
        elif ORIGINAL_RULE.match(bare) and re.search(r"[a-zA-ZÀ-ÿ]{3}", bare):
            starts.add(number)
        elif UNDERSCORES.match(bare) and any(HEADER_LABEL.match(n.strip()) for n in lines[number + 1:number + 3]):
            starts.add(number)
        elif HEADER_LABEL.match(bare) and sum(bool(HEADER_LABEL.match(n.strip())) or
                                                 bool(re.match(r"^\*?\w+\s?\*?:", n.strip()))
                                                 for n in lines[number + 1:number + 4]) >= 2:
            starts.add(number)
    return starts


def _own(lines: list[str]) -> list[str]:
    """The player's own lines, cut at the signature or a closing word."""
    kept: list[str] = []
    for line in lines:
        bare = line.strip()
        word = bare.lower().rstrip(",.!;:- ")
        closing = any(kept) and (word in CLOSINGS or any(word.startswith(c + ",") for c in CLOSINGS))
        if bare in ("--", "—") or SENT_FROM.match(bare) or closing:  # "Ciao," above the commands is a greeting
            break
        kept.append(bare)
    return kept


def new_lines(text: str) -> list[str]:
    """The lines the player wrote: above the quote; below it if nothing is above (bottom posting)."""
    lines = [_normal(line) for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    starts = _quote_starts(lines)
    quoted = [line.startswith(">") for line in lines]
    first = next((i for i, line in enumerate(lines) if quoted[i] or i in starts), len(lines))
    above = _own(lines[:first])
    if any(above) or first == len(lines):
        return above
    below: list[str] = []  # bottom posted: the unquoted lines after the quote (and between quotes)
    in_quote = True
    for number in range(first, len(lines)):
        if number in starts and number > first and not quoted[number] and below:
            break  # a further original (a forwarded chain): the player's lines end here
        if quoted[number] or number in starts:
            in_quote = True
            continue
        if in_quote and not lines[number]:
            continue
        in_quote = False
        below.append(lines[number])
    return _own(below)


def commands_of(lines: list[str]) -> list[str]:
    """One command per line: the first block of lines, after a greeting."""
    found: list[str] = []
    for line in lines:
        if not line:
            if found:
                break
            continue
        if not found and GREETING.match(line) and len(line) <= 50:
            continue
        found.append(line)
        if len(found) >= MAX_COMMANDS:
            break
    return found


def commands_in(message: EmailMessage) -> list[str]:
    """The commands a reply holds, in order."""
    return commands_of(new_lines(written_text(message)))
