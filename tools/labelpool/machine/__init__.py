"""Machine judges: a reviewed definition file, the backends that ask a model, and the record.

* ``protocol``: what one question to a machine judge is (:class:`~labelpool.machine.protocol.Item`),
  what comes back (:class:`~labelpool.machine.protocol.Reply`), and what a backend does
  (:class:`~labelpool.machine.protocol.Backend`).
* ``definition``: ``judges/NAME.yaml`` read, checked and named (its identity).
* ``answer``: a reply read onto the scale, several samples combined.
* ``openai_chat``: the ``openai`` backend (an OpenAI-compatible chat-completions endpoint).
* ``backends``: ``backend(judge)``, the backend of a judge's kind.
"""
