"""Writes the reply corpus: replies to a turn mail as ten mail programs write them, in eight languages.

Each program's way of quoting is imitated from its real output: where it puts the attribution line and how it
words and wraps it in each language, whether it marks the quote with ``>``, the HTML it sends (Gmail's
``gmail_quote``, Outlook's ``MsoNormal`` paragraphs and bordered header block, Outlook on the web's
``divRplyFwdMsg``, Apple's ``blockquote type="cite"``, Yahoo's ``yahoo_quoted``, Thunderbird's
``moz-cite-prefix``, Proton's ``protonmail_quote``), its "sent from" line, and top or bottom posting. The
commands each reply holds are in its ``X-Corpus-Commands`` header (separated by `` | ``).

Run it from the repository to write the ``.eml`` files beside it: ``python tests/replies/make_corpus.py``.
"""

from __future__ import annotations

import html
import textwrap
from email.message import EmailMessage
from pathlib import Path
from typing import Callable

TOKEN = "6b38b43147.0.4.aGVsbG8.Zx1Qnw.k3Hc0pVq8nJ6Wm2rT5yB1uD4eF7gH9iK"
FROM = f"play+{TOKEN}@pbem.example.org"
SUBJECT = "[Highdie (test game) · 6b38b43147] Your turn"
ORIGINAL = f"""Highdie (test game), game 6b38b43147
====================================

Ann, it is your turn.

WHAT TO DO: bet or play a card
Deadline: Thursday 6 March 2026, 10:02 UTC.

Act on the web page: https://pbem.example.org/play/{TOKEN}

Or reply to this mail with one command per line, for example:
    bet 1
    bet 2
    play 15
    pass
To talk: say MESSAGE (everyone), tell NAME MESSAGE, note ... (to yourself).
"""

LANGS = ["en", "de", "fr", "es", "it", "nl", "da", "sv"]
SAY = {"en": "say good luck everyone", "de": "say viel Glück allerseits", "fr": "say bonne chance à tous",
       "es": "say suerte a todos", "it": "say buona fortuna a tutti", "nl": "say succes allemaal",
       "da": "say held og lykke alle", "sv": "say lycka till allihop"}
COMMANDS = [["bet 2"], ["play 15"], ["place 3 cubes in Paris using 201 204", "claim London using 205"], ["pass"],
            ["move agent from Paris to Rome", "done"], ["bet 1", "SAY"], ["discard 201 203"],
            ["play Okhrana: cube of bob in Rome"], ["away 2026-12-01 2026-12-08 family visit"], ["bet 3", "play 12"]]
GREETING = {"en": "Hi,", "de": "Hallo zusammen,", "fr": "Bonjour,", "es": "Hola,", "it": "Ciao,", "nl": "Hoi,",
            "da": "Hej,", "sv": "Hej!"}
CLOSING = {"en": "Thanks,", "de": "Viele Grüße", "fr": "Merci,", "es": "Saludos,", "it": "Grazie,",
           "nl": "Groeten,", "da": "Mvh", "sv": "Hälsningar"}
NAME = {"en": "Ann", "de": "Anna", "fr": "Anne", "es": "Ana", "it": "Anna", "nl": "Anke", "da": "Anne", "sv": "Anna"}

GMAIL = {"en": "On Mon, 3 Mar 2026 at 10:02, pbem <{f}> wrote:",
         "de": "Am Mo., 3. März 2026 um 10:02 Uhr schrieb pbem <{f}>:",
         "fr": "Le lun. 3 mars 2026 à 10:02, pbem <{f}> a\u202fécrit\u202f:",
         "es": "El lun, 3 mar 2026 a las 10:02, pbem (<{f}>) escribió:",
         "it": "Il giorno lun 3 mar 2026 alle ore 10:02 pbem <{f}> ha scritto:",
         "nl": "Op ma 3 mrt 2026 om 10:02 schreef pbem <{f}>:",
         "da": "Den man. 3. mar. 2026 kl. 10.02 skrev pbem <{f}>:",
         "sv": "Den mån 3 mars 2026 kl 10:02 skrev pbem <{f}>:"}
APPLE = {"en": "On 3 Mar 2026, at 10:02, pbem <{f}> wrote:", "de": "Am 03.03.2026 um 10:02 schrieb pbem <{f}>:",
         "fr": "Le 3 mars 2026 à 10:02, pbem <{f}> a écrit :", "es": "El 3 mar 2026, a las 10:02, pbem <{f}> escribió:",
         "it": "Il giorno 3 mar 2026, alle ore 10:02, pbem <{f}> ha scritto:",
         "nl": "Op 3 mrt 2026 om 10:02 heeft pbem <{f}> het volgende geschreven:",
         "da": "Den 3. mar. 2026 kl. 10.02 skrev pbem <{f}>:", "sv": "3 mars 2026 kl. 10:02 skrev pbem <{f}>:"}
THUNDERBIRD = {"en": "On 03/03/2026 10:02, pbem wrote:", "de": "Am 03.03.26 um 10:02 schrieb pbem:",
               "fr": "Le 03/03/2026 à 10:02, pbem a écrit :", "es": "El 3/3/26 a las 10:02, pbem escribió:",
               "it": "Il 03/03/26 10:02, pbem ha scritto:", "nl": "Op 03-03-2026 om 10:02 schreef pbem:",
               "da": "Den 03-03-2026 kl. 10:02 skrev pbem:", "sv": "Den 2026-03-03 kl. 10:02, skrev pbem:"}
YAHOO = {"en": "On Monday, 3 March 2026 at 10:02:11 GMT, pbem <{f}> wrote:",
         "de": "Am Montag, 3. März 2026 um 10:02:11 MEZ hat pbem <{f}> Folgendes geschrieben:",
         "fr": "Le lundi 3 mars 2026 à 10:02:11 UTC+1, pbem <{f}> a écrit :",
         "es": "El lunes, 3 de marzo de 2026, 10:02:11 CET, pbem <{f}> escribió:",
         "it": "Il lunedì 3 marzo 2026, 10:02:11 CET, pbem <{f}> ha scritto:",
         "nl": "Op maandag 3 maart 2026 10:02:11 CET schreef pbem <{f}>:",
         "da": "Den mandag den 3. marts 2026 10.02.11 CET skrev pbem <{f}>:",
         "sv": "Den måndag 3 mars 2026 10:02:11 CET skrev pbem <{f}>:"}
PROTON = {"en": "On Monday, March 3rd, 2026 at 10:02, pbem <{f}> wrote:",
          "de": "Am Montag, 3. März 2026 um 10:02 schrieb pbem <{f}>:",
          "fr": "Le lundi 3 mars 2026 à 10:02, pbem <{f}> a écrit :",
          "es": "El lunes, 3 de marzo de 2026 a las 10:02, pbem <{f}> escribió:",
          "it": "Il lunedì 3 marzo 2026 alle 10:02, pbem <{f}> ha scritto:",
          "nl": "Op maandag 3 maart 2026 om 10:02 schreef pbem <{f}>:",
          "da": "Mandag den 3. marts 2026 kl. 10.02 skrev pbem <{f}>:",
          "sv": "Måndag 3 mars 2026 kl. 10:02 skrev pbem <{f}>:"}
MUTT = {"en": "On Mon, Mar 03, 2026 at 10:02:11AM +0000, pbem wrote:",
        "de": "Am Mon, 03. Mär 2026 um 10:02:11 +0000 schrieb pbem:",
        "fr": "Le lun. 03 mars 2026 à 10:02:11 +0000, pbem a écrit :",
        "es": "El lun, 03 mar 2026 a las 10:02:11 +0000, pbem escribió:",
        "it": "Il lun 03 mar 2026 alle 10:02:11 +0000, pbem ha scritto:",
        "nl": "Op ma 03 mrt 2026 om 10:02:11 +0000 schreef pbem:",
        "da": "Den man 03 mar 2026 kl. 10:02:11 +0000 skrev pbem:",
        "sv": "Den mån 03 mar 2026 kl. 10:02:11 +0000 skrev pbem:"}
K9 = {"en": "On March 3, 2026 10:02:11 AM UTC, pbem <{f}> wrote:",
      "de": "Am 3. März 2026 10:02:11 UTC schrieb pbem <{f}>:",
      "fr": "Le 3 mars 2026 10:02:11 UTC, pbem <{f}> a écrit :",
      "es": "El 3 de marzo de 2026 10:02:11 UTC, pbem <{f}> escribió:",
      "it": "Il 3 marzo 2026 10:02:11 UTC, pbem <{f}> ha scritto:",
      "nl": "Op 3 maart 2026 10:02:11 UTC schreef pbem <{f}>:",
      "da": "Den 3. marts 2026 10.02.11 UTC skrev pbem <{f}>:",
      "sv": "Den 3 mars 2026 10:02:11 UTC skrev pbem <{f}>:"}
OUTLOOK = {"en": ("From", "Sent", "To", "Subject", "Monday, March 3, 2026 10:02 AM"),
           "de": ("Von", "Gesendet", "An", "Betreff", "Montag, 3. März 2026 10:02"),
           "fr": ("De\u00a0", "Envoyé\u00a0", "À\u00a0", "Objet\u00a0", "lundi 3 mars 2026 10:02"),
           "es": ("De", "Enviado el", "Para", "Asunto", "lunes, 3 de marzo de 2026 10:02"),
           "it": ("Da", "Inviato", "A", "Oggetto", "lunedì 3 marzo 2026 10:02"),
           "nl": ("Van", "Verzonden", "Aan", "Onderwerp", "maandag 3 maart 2026 10:02"),
           "da": ("Fra", "Sendt", "Til", "Emne", "3. marts 2026 10:02"),
           "sv": ("Från", "Skickat", "Till", "Ämne", "den 3 mars 2026 10:02")}
SAMSUNG = {"en": ("-------- Original message --------", "From", "Date", "To", "Subject", "Sent from my Galaxy"),
           "de": ("-------- Ursprüngliche Nachricht --------", "Von", "Datum", "An", "Betreff",
                  "Von meinem Galaxy gesendet"),
           "fr": ("-------- Message d'origine --------", "De ", "Date ", "À ", "Objet ", "Envoyé depuis mon Galaxy"),
           "es": ("-------- Mensaje original --------", "De", "Fecha", "Para", "Asunto", "Enviado desde mi Galaxy"),
           "it": ("-------- Messaggio originale --------", "Da", "Data", "A", "Oggetto", "Inviato dal mio Galaxy"),
           "nl": ("-------- Oorspronkelijk bericht --------", "Van", "Datum", "Aan", "Onderwerp",
                  "Verzonden vanaf mijn Galaxy"),
           "da": ("-------- Oprindelig besked --------", "Fra", "Dato", "Til", "Emne", "Sendt fra min Galaxy"),
           "sv": ("-------- Originalmeddelande --------", "Från", "Datum", "Till", "Ämne", "Skickat från min Galaxy")}
IPHONE = {"en": "Sent from my iPhone", "de": "Von meinem iPhone gesendet", "fr": "Envoyé de mon iPhone",
          "es": "Enviado desde mi iPhone", "it": "Inviato da iPhone", "nl": "Verstuurd vanaf mijn iPhone",
          "da": "Sendt fra min iPhone", "sv": "Skickat från min iPhone"}
PROTON_SENT = {"en": "Sent with Proton Mail secure email.", "de": "Gesendet mit der sicheren E-Mail von Proton Mail.",
               "fr": "Envoyé avec la messagerie sécurisée Proton Mail.",
               "es": "Enviado con el correo electrónico seguro de Proton Mail.",
               "it": "Inviato con l'email sicura di Proton Mail.", "nl": "Verzonden met beveiligde Proton Mail e-mail.",
               "da": "Sendt med Proton Mail sikker e-mail.", "sv": "Skickat med Proton Mail säker e-post."}


def quoted(text: str, mark: str = "> ") -> str:
    return "\n".join((mark + line).rstrip() if line else mark.rstrip() for line in text.splitlines())


def html_lines(text: str) -> str:
    return "".join(f"<div>{html.escape(line)}</div>" if line else "<div><br></div>" for line in text.splitlines())


def body(lang: str, number: int) -> tuple[list[str], list[str]]:
    """The lines the player writes (with a greeting and a closing in some replies), and the commands among them."""
    commands = [SAY[lang] if c == "SAY" else c for c in COMMANDS[number % len(COMMANDS)]]
    lines = list(commands)
    if number % 3 == 1:
        lines = [GREETING[lang], "", *lines]
    if number % 2 == 0:
        lines += ["", CLOSING[lang], NAME[lang]]
    return lines, commands


def gmail(lang: str, own: str) -> tuple[str | None, str | None]:
    head = GMAIL[lang].format(f=FROM)
    plain = f"{own}\n\n" + "\n".join(textwrap.wrap(head, 76)) + f"\n\n{quoted(ORIGINAL)}\n"
    page = (f'<div dir="ltr">{html_lines(own)}</div><br><div class="gmail_quote gmail_quote_container">'
            f'<div dir="ltr" class="gmail_attr">{html.escape(head)}<br></div><blockquote class="gmail_quote" '
            f'style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">'
            f'{html_lines(ORIGINAL)}</blockquote></div>')
    return plain, page


def outlook(lang: str, own: str) -> tuple[str | None, str | None]:
    frm, sent, to, subject, date = OUTLOOK[lang]
    block = (f"{frm}: pbem <{FROM}>\n{sent}: {date}\n{to}: Ann <ann@example.org>\n{subject}: {SUBJECT}")
    plain = f"{own}\n\n________________________________\n{block}\n\n{ORIGINAL}"
    paragraphs = "".join(f'<p class="MsoNormal">{html.escape(line) or "<o:p>&nbsp;</o:p>"}<o:p></o:p></p>'
                         for line in own.splitlines())
    page = (f'<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><style><!-- p.MsoNormal {{margin:0cm;}}'
            f' --></style></head><body lang="EN-GB"><div class="WordSection1">{paragraphs}'
            f'<p class="MsoNormal"><o:p>&nbsp;</o:p></p><div><div style="border:none;border-top:solid #E1E1E1 1.0pt;'
            f'padding:3.0pt 0cm 0cm 0cm"><p class="MsoNormal"><b>{frm}:</b> pbem &lt;{FROM}&gt;<br><b>{sent}:</b> '
            f'{date}<br><b>{to}:</b> Ann &lt;ann@example.org&gt;<br><b>{subject}:</b> {html.escape(SUBJECT)}'
            f'<o:p></o:p></p></div></div><p class="MsoNormal"><o:p>&nbsp;</o:p></p>'
            + "".join(f'<p class="MsoNormal">{html.escape(line)}<o:p></o:p></p>' for line in ORIGINAL.splitlines())
            + "</div></body></html>")
    return plain, page


def owa(lang: str, own: str) -> tuple[str | None, str | None]:
    frm, sent, to, subject, date = OUTLOOK[lang]
    page = (f'<html><head><style type="text/css" style="display:none;"> P {{margin-top:0;margin-bottom:0;}} '
            f'</style></head><body dir="ltr"><div class="elementToProof" style="font-family: Aptos, Aptos_EmbeddedFont,'
            f' Calibri, Helvetica, sans-serif; font-size: 12pt;">' + "<br>".join(html.escape(l) for l in own.splitlines())
            + '</div><div id="appendonsend"></div><hr style="display:inline-block;width:98%" tabindex="-1">'
            f'<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" style="font-size:11pt" '
            f'color="#000000"><b>{frm}:</b> pbem &lt;{FROM}&gt;<br><b>{sent}:</b> {date}<br><b>{to}:</b> Ann '
            f'&lt;ann@example.org&gt;<br><b>{subject}:</b> {html.escape(SUBJECT)}</font><div>&nbsp;</div></div>'
            f'<div class="BodyFragment"><font size="2"><span style="font-size:11pt;"><div class="PlainText">'
            + "<br>".join(html.escape(l) for l in ORIGINAL.splitlines()) + "</div></span></font></div></body></html>")
    return None, page  # Outlook on the web sends HTML only


def apple(lang: str, own: str) -> tuple[str | None, str | None]:
    head = APPLE[lang].format(f=FROM)
    plain = f"{own}\n\n> {head}\n> \n{quoted(ORIGINAL)}\n\n"
    page = (f'<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head><body '
            f'style="overflow-wrap: break-word; -webkit-nbsp-mode: space; line-break: after-white-space;">'
            + "".join(f"<div>{html.escape(l)}</div>" if l else "<div><br></div>" for l in own.splitlines())
            + f'<div><br><blockquote type="cite"><div>{html.escape(head)}</div><br '
            f'class="Apple-interchange-newline"><div><div>{html_lines(ORIGINAL)}</div></div></blockquote></div>'
            f'<br></body></html>')
    return plain, page


def iphone(lang: str, own: str) -> tuple[str | None, str | None]:
    head = APPLE[lang].format(f=FROM)
    plain = f"{own}\n\n{IPHONE[lang]}\n\n> {head}\n> \n{quoted(ORIGINAL)}\n"
    page = (f'<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head><body '
            f'dir="auto"><div dir="ltr">' + "<br>".join(html.escape(l) for l in own.splitlines())
            + f'</div><div dir="ltr"><br><div dir="ltr">{IPHONE[lang]}</div><div dir="ltr"><br><blockquote '
            f'type="cite">{html.escape(head)}<br><br></blockquote></div><blockquote type="cite"><div dir="ltr">'
            f'{html_lines(ORIGINAL)}</div></blockquote></div></body></html>')
    return plain, page


def thunderbird(lang: str, own: str) -> tuple[str | None, str | None]:
    head = THUNDERBIRD[lang]
    plain = f"{own}\n\n{head}\n{quoted(ORIGINAL)}\n"
    page = (f'<!DOCTYPE html><html><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8">'
            f'</head><body><p>' + "<br>\n".join(html.escape(l) for l in own.splitlines())
            + f'</p><br><div class="moz-cite-prefix">{html.escape(head)}<br></div><blockquote type="cite" '
            f'cite="mid:0a1b2c3d4e5f@pbem.example.org"><pre class="moz-quote-pre" wrap="">'
            f'{html.escape(ORIGINAL)}</pre></blockquote></body></html>')
    return plain, page


def yahoo(lang: str, own: str) -> tuple[str | None, str | None]:
    head = YAHOO[lang].format(f=FROM)
    indented = "\n".join(("    " + line) if line else "" for line in ORIGINAL.splitlines())
    plain = f"{own}\n\n\n    {head}  \n \n{indented}\n  "  # Yahoo quotes without any > mark
    page = (f'<html><head></head><body><div class="ydp1c2b3a4byahoo-style-wrap" style="font-family:Helvetica '
            f'Neue, Helvetica, Arial, sans-serif;font-size:13px;">' + html_lines(own)
            + f'</div><div id="yahoo_quoted_8812345678" class="yahoo_quoted"><div style="font-family:\'Helvetica '
            f'Neue\', Helvetica, Arial, sans-serif;font-size:13px;color:#26282a;"><div>{html.escape(head)}</div>'
            f'<div><br></div><div><br></div><div><div id="yiv1234567890"><div>{html_lines(ORIGINAL)}</div></div>'
            f'</div></div></div></body></html>')
    return plain, page


def proton(lang: str, own: str) -> tuple[str | None, str | None]:
    head = PROTON[lang].format(f=FROM)
    plain = f"{own}\n\n{PROTON_SENT[lang]}\n\n{head}\n\n{quoted(ORIGINAL)}\n"
    page = (f'<div style="font-family: Arial, sans-serif; font-size: 14px;">' + "<br>".join(
        html.escape(l) for l in own.splitlines()) + '</div><div style="font-family: Arial, sans-serif; font-size: '
        f'14px;"><br></div><div class="protonmail_signature_block" style="font-family: Arial, sans-serif; '
        f'font-size: 14px;"><div class="protonmail_signature_block-proton">{PROTON_SENT[lang]}</div></div><div '
        f'style="font-family: Arial, sans-serif; font-size: 14px;"><br></div><div class="protonmail_quote">'
        f'{html.escape(head)}<br><br><blockquote class="protonmail_quote" type="cite">{html_lines(ORIGINAL)}'
        f'</blockquote><br></div>')
    return plain, page


def mutt(lang: str, own: str) -> tuple[str | None, str | None]:
    # bottom posting, as mutt users write: the quote trimmed, the answer below it, then the signature
    head = MUTT[lang]
    trimmed = "\n".join(ORIGINAL.splitlines()[:6])
    return f"{head}\n{quoted(trimmed)}\n\n{own}\n\n-- \n{NAME[lang]} <ann@example.org>\n", None


def samsung(lang: str, own: str) -> tuple[str | None, str | None]:
    rule, frm, date, to, subject, sent = SAMSUNG[lang]
    block = (f"{rule}\n{frm}: pbem <{FROM}> \n{date}: 03/03/2026 10:02 (GMT+00:00) \n{to}: Ann <ann@example.org> \n"
             f"{subject}: {SUBJECT} \n\n")
    plain = f"{own}\n\n\n\n{sent}\n\n\n{block}{ORIGINAL}"
    page = (f'<html><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"></head><body dir="auto">'
            + "".join(f'<div dir="auto">{html.escape(l) or "<br>"}</div>' for l in own.splitlines())
            + f'<div dir="auto"><br></div><div id="composer_signature" dir="auto"><div style="font-size:85%;color:'
            f'#575757" dir="auto">{sent}</div></div><div dir="auto"><br></div><div><br></div><div align="left" '
            f'dir="auto" style="font-size:100%;color:#000000"><div>{rule}</div><div>{frm}: pbem &lt;{FROM}&gt; '
            f'</div><div>{date}: 03/03/2026 10:02 (GMT+00:00) </div><div>{to}: Ann &lt;ann@example.org&gt; </div>'
            f'<div>{subject}: {html.escape(SUBJECT)} </div><div><br></div></div>{html_lines(ORIGINAL)}</body></html>')
    return plain, page


def k9(lang: str, own: str) -> tuple[str | None, str | None]:
    head = K9[lang].format(f=FROM)
    return f"{own}\n\n{head}\n{quoted(ORIGINAL)}\n", None  # K-9 Mail / Thunderbird for Android, plain text


CLIENTS: dict[str, Callable[[str, str], tuple[str | None, str | None]]] = {
    "gmail": gmail, "outlook": outlook, "outlook-web": owa, "apple-mail": apple, "iphone": iphone,
    "thunderbird": thunderbird, "yahoo": yahoo, "proton": proton, "mutt": mutt, "samsung": samsung, "k9": k9,
}


def make(client: str, lang: str, number: int) -> EmailMessage:
    lines, commands = body(lang, number)
    plain, page = CLIENTS[client](lang, "\n".join(lines))
    message = EmailMessage()
    message["From"] = f"{NAME[lang]} <ann@example.org>"
    message["To"] = f"pbem <{FROM}>"
    message["Subject"] = "Re: " + SUBJECT
    message["Message-ID"] = f"<{client}-{lang}@mail.example.org>"
    message["X-Corpus-Commands"] = " | ".join(commands)
    if plain is not None:
        message.set_content(plain)
        if page is not None:
            message.add_alternative(page, subtype="html")
    else:
        assert page is not None
        message.set_content(page, subtype="html")
    return message


def main() -> None:
    folder = Path(__file__).resolve().parent
    number = 0
    for client in CLIENTS:
        for lang in LANGS:
            (folder / f"{client}-{lang}.eml").write_bytes(bytes(make(client, lang, number)))
            number += 1


if __name__ == "__main__":
    main()
