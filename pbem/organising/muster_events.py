"""The events of a muster's stream: their stable names and payload schemas (what each means:
``pbem.organising.muster``)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from events.rules import EventType

OPENED, INVITED, ANSWERED = "pbem.MusterOpened", "pbem.MusterInvited", "pbem.MusterAnswered"
EXPIRED, CANCELLED, STARTED = "pbem.MusterExpired", "pbem.MusterCancelled", "pbem.MusterStarted"
ANSWERS = ("accept", "decline")


class OpenedSchema(Schema):
    game_type = fields.String(required=True)
    options = fields.Dict(required=True)
    data_override = fields.Dict(allow_none=True, required=True)
    organiser = fields.String(required=True)
    organiser_name = fields.String(required=True)
    places = fields.Integer(required=True, strict=True)
    payload_commitments = fields.String(required=True)
    position = fields.Dict()  # the position the game begins from (``pbem.organising.positions``), if any
    name = fields.String(allow_none=True, validate=validate.Length(min=1, max=80))  # the game's (None: by default)


class InvitedSchema(Schema):
    slot = fields.Integer(required=True, strict=True)
    name = fields.String(required=True, validate=validate.Length(min=1, max=40))
    email = fields.String(required=True)
    expires_at = fields.String(required=True)
    replaces = fields.Integer(allow_none=True, required=True, strict=True)


class AnsweredSchema(Schema):
    slot = fields.Integer(required=True, strict=True)
    invitation = fields.Integer(required=True, strict=True)
    answer = fields.String(required=True, validate=validate.OneOf(ANSWERS))


class ExpiredSchema(Schema):
    slot = fields.Integer(required=True, strict=True)
    invitation = fields.Integer(required=True, strict=True)


class CancelledSchema(Schema):
    reason = fields.String(required=True, validate=validate.Length(max=300))


class StartedSchema(Schema):
    game_id = fields.String(required=True)


MUSTER_EVENT_TYPES = (
    EventType(OPENED, OpenedSchema, doc="A muster opened: the game asked for, its name if the organiser gave one, "
                                        "the position it begins from if any, and its organiser (server only)."),
    EventType(INVITED, InvitedSchema, doc="A player invited to a place, with the invitation's expiry; replaces: "
                                          "the seq of the invitation it replaces."),
    EventType(ANSWERED, AnsweredSchema, doc="An invitee accepted or declined through the invitation's link."),
    EventType(EXPIRED, ExpiredSchema, doc="An invitation not answered by its expiry (the scheduler)."),
    EventType(CANCELLED, CancelledSchema, doc="The organiser cancelled the muster."),
    EventType(STARTED, StartedSchema, doc="Everyone accepted: the game of this id is created."),
)
