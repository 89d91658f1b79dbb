"""Write the example help-centre corpus: ``corpus/corpus.jsonl`` (BEIR format).

The text is written by hand below, except where a real help-centre would itself be templated:
the two versions of each policy are one text with last year's and this year's facts filled in,
and the three tenants' pages are one template with each tenant's names and numbers.

Run from anywhere: ``python corpus/make_corpus.py``. The output is deterministic (documents in
the order written here); ``runs/make_runs.py`` reads it.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

Chunk = tuple[str, str, str]  # (_id, title, text)

# --------------------------------------------------------------------------------------------
# The passage on damaged items, copied word for word into an FAQ, the agents' handbook and the
# PDF export of the customer service guide (near-duplicates: one relevance class).
DAMAGED_V3 = (
    "Items damaged in transit may be returned within 30 days of delivery, free of charge. "
    "Take photos of the item and the packaging before you throw anything away, then open a "
    "return in your account and choose 'Arrived damaged'. We email a prepaid label at once. "
    "You can choose a replacement or a full refund to the original payment method, "
    "including the original delivery fee."
)

# --------------------------------------------------------------------------------------------
# Returns policy: v2 (last year) and v3 (this year). Same sections, different facts.
RETURNS = {
    "sec-1": (
        "Scope of this returns policy",
        "This returns policy applies to every order placed with Larkspur Home on or after "
        "{effective}, online, in the app or by phone. It replaces all earlier versions. Orders "
        "placed through a business storefront may have their own return terms, set by the "
        "business that runs the storefront. Where this policy and the law differ, the rules that "
        "are better for you apply.",
    ),
    "sec-2": ("Items damaged in transit", "{damaged}"),
    "sec-3": (
        "Returning an item you no longer want",
        "You may return an unused item in its original packaging within {window} days of "
        "delivery, for any reason. {mind_fee} Start the return in your account under Orders, "
        "print the label, and drop the parcel at any post office or pickup point.",
    ),
    "sec-4": (
        "When refunds are paid",
        "Once the parcel reaches our warehouse we inspect it and pay the refund within "
        "{refund_days} business days to the original payment method. Banks can take a few more "
        "days to show the money. Store credit is issued {credit}. If an item comes back used "
        "or incomplete, we may refund part of the price and tell you why.",
    ),
    "sec-5": (
        "Exchanges",
        "{exchange} Exchanges are available for the same product in another size or colour; "
        "for a different product, return the item and place a new order. If the new size is "
        "out of stock, we refund the item instead.",
    ),
    "sec-6": (
        "Items that cannot be returned",
        "For hygiene and safety reasons the following cannot be returned unless faulty: "
        "{non_returnable}. Gift cards are never refundable. Ask customer service before you send "
        "back anything on this list: a return that cannot be accepted is sent back to you.",
    ),
    "sec-7": (
        "Sale and clearance items",
        "{sale} Outlet items marked 'as seen' are sold with the defect described on the product "
        "page, and that defect is not a reason for a return. Any other fault is covered as "
        "usual.",
    ),
}
RETURNS_FACTS = {
    "policy-returns-v2": {
        "title": "Returns policy 2025",
        "effective": "1 January 2025",
        "damaged": (
            "Items damaged in transit may be returned within 14 days of delivery. Keep the "
            "packaging and send us photos by email before returning anything. A return fee of "
            "4.95 euros is deducted from the refund and paid back once the damage is confirmed. "
            "You can choose a replacement or a refund to the original payment method; the "
            "original delivery fee is not refunded."
        ),
        "window": "14",
        "mind_fee": "Return shipping is free.",
        "refund_days": "10",
        "credit": "on request only, by contacting customer service",
        "exchange": "We do not exchange items directly: return the item and order it again.",
        "non_returnable": "underwear, swimwear, pierced jewellery and earbuds' ear tips",
        "sale": "Sale and clearance items are final sale and cannot be returned.",
    },
    "policy-returns-v3": {
        "title": "Returns policy 2026",
        "effective": "1 January 2026",
        "damaged": DAMAGED_V3,
        "window": "30",
        "mind_fee": "A return shipping fee of 3.95 euros is deducted from the refund.",
        "refund_days": "5",
        "credit": "immediately when you choose it instead of a refund, with a 10 percent bonus",
        "exchange": "Each order includes one free exchange, shipped as soon as you drop off "
        "the return.",
        "non_returnable": "underwear, swimwear, pierced jewellery, opened software and "
        "personalised items",
        "sale": "Sale items can be returned within the normal window for store credit only.",
    },
}

# --------------------------------------------------------------------------------------------
# Warranty policy: v1 (last year) and v2 (this year).
WARRANTY = {
    "sec-1": (
        "What the warranty covers",
        "Every electrical product sold by Larkspur Home carries our own warranty against "
        "manufacturing defects: parts that stop working under normal use. {cover_extra} The "
        "warranty comes on top of your legal rights and does not replace them.",
    ),
    "sec-2": (
        "How long the warranty lasts",
        "The warranty lasts {years} from the date of delivery. {battery} Keep your order "
        "confirmation: it is your proof of purchase, and it is also stored in your account. The "
        "warranty moves with the product if you give it away or sell it.",
    ),
    "sec-3": (
        "What the warranty does not cover",
        "The warranty does not cover accidental damage such as drops or spills, normal wear of "
        "filters, brushes and ear tips, damage from unofficial repairs, or cosmetic marks that "
        "do not affect use. {exclusion_extra} Consumables such as descaler and batteries "
        "sold separately are not covered either.",
    ),
    "sec-4": (
        "Making a warranty claim",
        "To claim, open your order, choose 'Report a fault' and describe what happens. "
        "{claim} We may ask you to try a reset first; many faults are fixed that way. Most repairs "
        "take 10 business days from the moment the product reaches us.",
    ),
    "sec-5": (
        "Repair, replacement or refund",
        "If the fault is covered we repair the product; if a repair is not possible we replace "
        "it, and if no replacement is available we refund {refund}. A repaired or replaced "
        "product keeps the remaining warranty {repair_extra}.",
    ),
    "sec-6": (
        "Extended warranty plans",
        "You can extend the warranty when you buy a product or within {extend_days} days after "
        "delivery. {plan} The plan can be cancelled within 30 days for a full refund.",
    ),
}
WARRANTY_FACTS = {
    "policy-warranty-v1": {
        "title": "Warranty policy 2025",
        "cover_extra": "Accessories sold separately are covered for 6 months.",
        "years": "one year",
        "battery": "Batteries are covered for 6 months.",
        "exclusion_extra": "Products bought from the outlet are not covered.",
        "claim": "You pay the postage to our repair centre and we pay the way back.",
        "refund": "the price you paid minus 10 percent for each year of use",
        "repair_extra": "or 30 days, whichever is longer",
        "extend_days": "14",
        "plan": "The plan adds one year for 15 percent of the product price.",
    },
    "policy-warranty-v2": {
        "title": "Warranty policy 2026",
        "cover_extra": "Accessories sold separately are covered for one year.",
        "years": "two years",
        "battery": "Batteries are covered for the full two years if they keep less than 70 "
        "percent of their capacity.",
        "exclusion_extra": "Outlet products are covered for one year.",
        "claim": "We send a free courier to collect the product from your home.",
        "refund": "the full price you paid",
        "repair_extra": "or 90 days, whichever is longer",
        "extend_days": "60",
        "plan": "The plan adds two years for 12 percent of the product price and includes one "
        "accidental damage repair.",
    },
}

# --------------------------------------------------------------------------------------------
# Privacy notice: 2025 (last year) and 2026 (this year).
PRIVACY = {
    "sec-1": (
        "What personal data we collect",
        "We collect the details you give us (name, addresses, email, phone number), your "
        "orders and returns, how you use our website and app, and {collect_extra}. We never "
        "store your full card number; our payment provider does.",
    ),
    "sec-2": (
        "How we use your data",
        "We use your data to deliver orders, handle returns and warranty claims, prevent "
        "fraud, and answer your questions. {marketing} We use your order history to suggest "
        "products only when you are signed in.",
    ),
    "sec-3": (
        "How long we keep your data",
        "We keep order records for 7 years because tax law requires it. Browsing and app "
        "usage data is deleted after {usage_months} months. Customer service chats and call "
        "recordings are deleted after {chat_months} months. Data in backups disappears within 90 "
        "days of being deleted from our systems.",
    ),
    "sec-4": (
        "Who we share data with",
        "We share only what is needed with delivery companies, our payment provider and our "
        "customer service software. {sharing} Every partner is bound by a contract and may use "
        "the data only for the service it gives us.",
    ),
    "sec-5": (
        "Cookies and tracking",
        "Essential cookies keep your basket and login working. {cookies} Social media buttons "
        "load only after you click them. You can change "
        "your choice at any time under Cookie settings at the bottom of every page.",
    ),
    "sec-6": (
        "Your rights: access, correction, deletion",
        "You can ask for a copy of your data, have it corrected, or have your account and "
        "data deleted. We answer within {rights_days} days. {rights_extra} We may ask you to "
        "confirm your identity first, to be sure nobody else asks for your data.",
    ),
    "sec-7": (
        "Contacting our data protection officer",
        "Our data protection officer can be reached at privacy@larkspur.example or by post at "
        "Larkspur Home, Data Protection, 12 Canal Street, Rotterdam. {dpo_extra} Please include "
        "the email address of your account so that we can find your data.",
    ),
}
PRIVACY_FACTS = {
    "policy-privacy-2025": {
        "title": "Privacy notice 2025",
        "collect_extra": "your location when you allow it in the app",
        "marketing": "We send marketing emails unless you opt out.",
        "usage_months": "24",
        "chat_months": "12",
        "sharing": "We also share purchase data with advertising partners to show you "
        "relevant ads.",
        "cookies": "Analytics and advertising cookies are switched on unless you refuse them.",
        "rights_days": "30",
        "rights_extra": "Requests are made by email.",
        "dpo_extra": "Complaints can also go to the national data protection authority.",
    },
    "policy-privacy-2026": {
        "title": "Privacy notice 2026",
        "collect_extra": "voice recordings only when you use the voice assistant in the app",
        "marketing": "We send marketing emails only if you opt in, and every email has a "
        "one-click unsubscribe link.",
        "usage_months": "12",
        "chat_months": "6",
        "sharing": "We no longer share purchase data with advertising partners.",
        "cookies": "Analytics and advertising cookies stay off until you accept them.",
        "rights_days": "14",
        "rights_extra": "You can download your data or delete your account yourself under "
        "Account, Privacy.",
        "dpo_extra": "Complaints can also go to the national data protection authority.",
    },
}

VERSIONED = [(RETURNS, RETURNS_FACTS), (WARRANTY, WARRANTY_FACTS), (PRIVACY, PRIVACY_FACTS)]

# --------------------------------------------------------------------------------------------
# Shipping policy (one current version).
SHIPPING: list[Chunk] = [
    (
        "policy-shipping#sec-1",
        "Shipping policy: delivery options",
        "We offer standard delivery in 2 to 4 business days, express delivery the next business "
        "day when you order before 8 pm, and evening delivery between 6 pm and 10 pm in large "
        "cities. Large furniture is delivered by a two-person crew on a day you choose.",
    ),
    (
        "policy-shipping#sec-2",
        "Shipping policy: delivery costs",
        "Standard delivery costs 4.95 euros and is free on orders over 50 euros. Express "
        "delivery costs 9.95 euros. Two-person delivery of furniture costs 39 euros, including "
        "unpacking and taking the packaging away. "
        "Orders split into several parcels by us are charged delivery once.",
    ),
    (
        "policy-shipping#sec-3",
        "Shipping policy: international orders",
        "We ship to all countries of the European Union, the United Kingdom, Norway and "
        "Switzerland. Delivery outside the EU takes 5 to 8 business days and costs 14.95 euros. "
        "We do not ship furniture outside the Netherlands, Belgium and Germany.",
    ),
    (
        "policy-shipping#sec-4",
        "Shipping policy: customs and import duties",
        "For parcels sent to the United Kingdom, Norway and Switzerland, the prices at checkout "
        "include import VAT and duties, so the courier will not ask you for money at the door. "
        "If you are asked to pay, refuse the parcel and contact us.",
    ),
    (
        "policy-shipping#sec-5",
        "Shipping policy: lost parcels",
        "A parcel counts as lost when tracking has not changed for 7 business days. We then "
        "open an investigation with the carrier and send a replacement or a refund at once; you "
        "do not have to wait for the investigation to end.",
    ),
    (
        "policy-shipping#sec-6",
        "Shipping policy: changing the delivery address",
        "You can change the delivery address until the order is packed, usually within one hour "
        "of ordering. After that, use the carrier's tracking page to redirect the parcel to a "
        "neighbour or a pickup point. "
        "The new address must be in the same country as the original one.",
    ),
]

# --------------------------------------------------------------------------------------------
FAQS: list[Chunk] = [
    ("faq-shipping#damaged", "FAQ: my order arrived damaged", DAMAGED_V3),
    (
        "faq-shipping#tracking",
        "FAQ: where is my order?",
        "As soon as your order leaves the warehouse we email a tracking link. You can also find "
        "it in your account under Orders. Tracking can take up to 24 hours to show the first "
        "scan, so an empty page the day you receive the email is normal.",
    ),
    (
        "faq-shipping#late",
        "FAQ: my delivery is late",
        "If your parcel has not arrived by the end of the expected delivery day, check the "
        "tracking page first: carriers sometimes deliver to a neighbour or a pickup point and "
        "leave a card. If tracking shows no movement for 7 business days, contact us and we "
        "will treat the parcel as lost.",
    ),
    (
        "faq-shipping#not-received",
        "FAQ: tracking says delivered but nothing arrived",
        "Check with neighbours, your building's reception and any safe place you named. Wait "
        "one more day, because carriers sometimes scan a parcel as delivered early. Then contact "
        "us within 14 days and we will ask the carrier for the GPS location and photo of the "
        "delivery.",
    ),
    (
        "faq-shipping#pickup-points",
        "FAQ: delivery to a pickup point",
        "At checkout you can pick a parcel locker or a shop near you instead of your home "
        "address. Your parcel waits there for 7 days; you get a code by email and text message. "
        "Parcels that are not collected come back to us and are refunded automatically.",
    ),
    (
        "faq-shipping#signature",
        "FAQ: do I need to sign for my delivery?",
        "Orders worth more than 500 euros need a signature, and the courier may ask for ID. "
        "Anyone over 18 at the address can sign. If nobody is home, the courier tries again the "
        "next business day and then takes the parcel to a pickup point.",
    ),
    (
        "faq-shipping#weekend",
        "FAQ: do you deliver on weekends?",
        "Saturday delivery is available in the Netherlands and Belgium for 5.95 euros. We do not "
        "deliver on Sundays or public holidays. Orders placed on Friday after 8 pm ship on "
        "Monday unless you choose Saturday delivery. "
        "Saturday deliveries arrive between 9 am and 6 pm.",
    ),
    (
        "faq-returns#start",
        "FAQ: how do I start a return?",
        "Sign in, open Orders, choose the order and press 'Return items'. Pick the items and a "
        "reason, then choose how you want to send the parcel back: a printed label, a QR code "
        "you show at the post office, or a courier pickup for large items.",
    ),
    (
        "faq-returns#no-printer",
        "FAQ: I don't have a printer for the return label",
        "You do not need one. Choose the QR code option when you start your return and show the "
        "code on your phone at the post office or pickup point; the staff print the label for "
        "you at no cost. "
        "The QR code is also in your confirmation email.",
    ),
    (
        "faq-returns#refund-status",
        "FAQ: where is my refund?",
        "Your return's status is shown under Orders: sent, received, inspected, refunded. We "
        "email you when the refund is paid. If the status says refunded but you cannot see the "
        "money, allow your bank up to 5 business days. "
        "Inspection usually takes two business days after the parcel arrives.",
    ),
    (
        "faq-returns#gift",
        "FAQ: returning a gift",
        "You can return a gift without the buyer knowing. Use the gift receipt's order number "
        "and your own email address at larkspur.example/gift-return. You receive store credit "
        "for the value of the item, not a refund to the buyer's card. "
        "The buyer's payment details are never shown to you.",
    ),
    (
        "faq-returns#wrong-size",
        "FAQ: the size is wrong, can I swap it?",
        "Yes. Start a return, choose 'Exchange' and pick the size you need. We ship the new size "
        "as soon as the carrier scans your parcel, so you do not have to wait for the old one to "
        "reach us. "
        "If you keep both, we charge the new item after 30 days.",
    ),
    (
        "faq-payments#methods",
        "FAQ: which payment methods do you accept?",
        "We accept Visa, Mastercard, American Express, iDEAL, Bancontact, PayPal, Apple Pay, "
        "Google Pay, gift cards and store credit. Business customers can also pay by invoice "
        "after a credit check. "
        "All card payments are protected with 3-D Secure, so your bank may ask you to confirm the "
        "payment in its app. Cash is accepted only in our stores.",
    ),
    (
        "faq-payments#declined",
        "FAQ: my payment was declined",
        "A declined payment is decided by your bank, not by us. Check the card number, expiry "
        "date and billing address, and whether your bank asked you to approve the payment in its "
        "app. If it still fails, try another method; nothing is charged for a declined attempt.",
    ),
    (
        "faq-payments#double-charge",
        "FAQ: I was charged twice",
        "When a payment is retried, your bank may show two pending amounts. Only one is "
        "collected; the other disappears within 5 business days. If two amounts are still there "
        "after that, send us a bank statement and we refund the extra one the same day.",
    ),
    (
        "faq-payments#invoice",
        "FAQ: can I get an invoice with VAT?",
        "Every order has a VAT invoice you can download as a PDF under Orders. To add a company "
        "name and VAT number, enter them at checkout or edit the invoice details within 30 days "
        "of ordering. "
        "Invoices cannot be changed after those 30 days.",
    ),
    (
        "faq-payments#gift-cards",
        "FAQ: using a gift card",
        "Enter the 16-digit code and PIN at checkout. Gift cards are valid for 3 years and can be "
        "combined with one other payment method. A remaining balance stays on the card; you can "
        "check it at larkspur.example/giftcard. "
        "Lost gift cards can be blocked if you still have the receipt.",
    ),
    (
        "faq-payments#pay-later",
        "FAQ: can I pay later or in instalments?",
        "With Klarna you can pay 30 days after delivery or split the amount into three "
        "interest-free instalments. Klarna checks your credit when you choose it; the decision "
        "is theirs, and the agreement is between you and Klarna. "
        "Returns are deducted from the amount you owe Klarna.",
    ),
    (
        "faq-payments#currency",
        "FAQ: prices in other currencies",
        "Prices are in euros. Customers in the United Kingdom and Switzerland see prices in "
        "pounds and francs and pay in their own currency, so their bank does not add an exchange "
        "fee. The rate is fixed when you place the order.",
    ),
    (
        "faq-account#password",
        "FAQ: I forgot my password",
        "Choose 'Forgot password' on the sign-in page and enter your email address. The reset "
        "link is valid for one hour. If the email does not come, check your spam folder, and "
        "make sure you use the address your account was made with.",
    ),
    (
        "faq-account#two-factor",
        "FAQ: two-step verification",
        "Turn on two-step verification under Account, Security. Each sign-in on a new device "
        "then needs a code from an authenticator app or a text message. Keep the backup codes "
        "we show you; they are the only way in if you lose your phone.",
    ),
    (
        "faq-account#email-change",
        "FAQ: changing my email address",
        "Go to Account, Personal details and enter the new address. We send a confirmation link "
        "to the new address and a notice to the old one. The change is made only when you press "
        "the link. "
        "The link is valid for 24 hours.",
    ),
    (
        "faq-account#delete",
        "FAQ: closing my account",
        "You can close your account yourself under Account, Privacy, 'Delete my account'. Open "
        "orders and returns must be finished first. Order records are kept for as long as tax "
        "law requires, but they are no longer linked to a login.",
    ),
    (
        "faq-account#locked",
        "FAQ: my account is locked",
        "After five wrong passwords in a row we lock the account for 30 minutes to protect it. "
        "You can unlock it at once by resetting your password. If you did not try to sign in, "
        "reset the password and turn on two-step verification.",
    ),
    (
        "faq-account#newsletter",
        "FAQ: stop receiving marketing emails",
        "Every newsletter has an unsubscribe link at the bottom. You can also switch off emails "
        "and app notifications under Account, Preferences. Order and delivery emails cannot be "
        "switched off because we need them to serve you. "
        "Changes take effect within 48 hours.",
    ),
    (
        "faq-orders#cancel",
        "FAQ: cancelling an order",
        "You can cancel an order yourself until it is packed, usually within one hour. Open the "
        "order and press 'Cancel'. The money is released to your payment method at once. Once "
        "the order has shipped, refuse the delivery or return it instead.",
    ),
    (
        "faq-orders#missing-item",
        "FAQ: an item is missing from my parcel",
        "Large orders are sometimes sent in several parcels; the tracking email lists each one. "
        "If every parcel has arrived and something is still missing, report it under Orders "
        "within 14 days and we send the missing item or refund it.",
    ),
    (
        "faq-orders#wrong-item",
        "FAQ: I received the wrong item",
        "Sorry about that. Report it under Orders with a photo of the item and its label. We "
        "send the right item at once, and a free return label for the wrong one; you keep it if "
        "it is worth less than 15 euros.",
    ),
    (
        "faq-orders#backorder",
        "FAQ: pre-orders and items out of stock",
        "Items marked 'pre-order' are charged only when they ship. For items out of stock, press "
        "'Notify me' on the product page and we email you when they are back. We cannot reserve "
        "stock for a customer. "
        "Pre-orders can be cancelled at any time before they ship.",
    ),
]

# --------------------------------------------------------------------------------------------
HANDBOOK: list[Chunk] = [
    ("handbook#returns-damaged", "Agent handbook: returns of damaged items", DAMAGED_V3),
    (
        "handbook#escalation",
        "Agent handbook: when to escalate",
        "Escalate to a team lead when a customer mentions a lawyer, the press or a safety "
        "problem such as smoke, sparks or burns; when a refund would exceed your approval "
        "limit; or when the same order has had three contacts without a solution.",
    ),
    (
        "handbook#approval-limits",
        "Agent handbook: approval limits",
        "First-line agents may approve refunds and goodwill up to 150 euros per order. Senior "
        "agents may approve up to 500 euros. Anything above that, and every refund without a "
        "return, needs a team lead's approval in the ticket. "
        "Approvals are logged and reviewed every month.",
    ),
    (
        "handbook#goodwill",
        "Agent handbook: goodwill gestures",
        "Offer goodwill when we caused the problem: a late delivery, a wrong item, a repeated "
        "contact. Prefer store credit of 10 percent of the order value, at most 50 euros. Do not "
        "offer goodwill for delays caused by storms or strikes.",
    ),
    (
        "handbook#fraud",
        "Agent handbook: signs of fraud",
        "Be careful with requests to change the delivery address after payment, refunds asked "
        "to a different card, many 'not received' claims from one address, and customers who "
        "push for speed. Never change payment details on request; flag the ticket for the "
        "fraud team.",
    ),
    (
        "handbook#tone",
        "Agent handbook: tone of voice",
        "Write as you speak: short sentences, the customer's name, no jargon. Say sorry once and "
        "mean it. Tell the customer what happens next and when. Never blame the carrier or "
        "another team in front of the customer. "
        "Use the customer's language when we support it, and keep emails under 150 words.",
    ),
    (
        "handbook#chargebacks",
        "Agent handbook: chargebacks",
        "When a bank opens a chargeback, do not refund the order yourself: that would pay the "
        "customer twice. Add the evidence (tracking, signature, photos) to the ticket and move "
        "it to the payments team, who answer the bank within 7 days.",
    ),
    (
        "handbook#warranty-triage",
        "Agent handbook: warranty triage",
        "Before registering a warranty claim, ask for the order number, a short video of the "
        "fault, and whether a reset was tried. Cosmetic damage and worn parts are not covered. "
        "Products with a burning smell are replaced at once, without repair.",
    ),
    (
        "handbook#handover",
        "Agent handbook: shift handover",
        "Before you end your shift, write a handover note on every open ticket: what the "
        "customer wants, what you promised and by when. Tickets waiting on the customer are set "
        "to pending; they close themselves after 7 days without a reply.",
    ),
]

# --------------------------------------------------------------------------------------------
# PDF export of the 2026 customer service guide: pages copy policy text (near-duplicates).
GUIDE_PDF: list[Chunk] = [
    (
        "export-pdf-2026#p1",
        "Customer service guide 2026 (PDF), page 1",
        "Customer service guide 2026. This guide collects the policies and procedures that "
        "customer service agents and partners use when they help Larkspur Home customers. It "
        "is exported from the help centre every quarter; the help centre is always the "
        "current version.",
    ),
    (
        "export-pdf-2026#p2",
        "Customer service guide 2026 (PDF), page 2",
        "Contents: opening hours and channels (page 3), delivery (page 4), returns (pages 5 to "
        "8), warranty (page 9), payments (page 10), privacy (page 11), escalation (page 12). "
        "Each chapter copies the help centre's text of the date of export; where the help centre "
        "has changed since, the help centre is right. Page numbers refer to the printed edition.",
    ),
    (
        "export-pdf-2026#p3",
        "Customer service guide 2026 (PDF), page 3",
        "Customer service is open Monday to Friday from 8 am to 8 pm and Saturday from 9 am to "
        "5 pm. Chat and phone share one queue; email is answered within one business day. "
        "Emergencies about product safety are answered around the clock.",
    ),
    (
        "export-pdf-2026#p4",
        "Customer service guide 2026 (PDF), page 4",
        "A parcel counts as lost when tracking has not changed for 7 business days. We then "
        "open an investigation with the carrier and send a replacement or a refund at once; you "
        "do not have to wait for the investigation to end.",
    ),
    (
        "export-pdf-2026#p5",
        "Customer service guide 2026 (PDF), page 5",
        "Returns at a glance: 30 days for any reason with a fee of 3.95 euros; damaged items "
        "free of charge within 30 days; refunds within 5 business days after inspection; one "
        "free exchange per order. "
        "Non-returnable items are listed on page 8; business storefronts set their own terms.",
    ),
    (
        "export-pdf-2026#p6",
        "Customer service guide 2026 (PDF), page 6",
        "You may return an unused item in its original packaging within 30 days of delivery, "
        "for any reason. A return shipping fee of 3.95 euros is deducted from the refund. Start "
        "the return in your account under Orders, print the label, and drop the parcel at any "
        "post office or pickup point.",
    ),
    ("export-pdf-2026#p7", "Customer service guide 2026 (PDF), page 7", DAMAGED_V3),
    (
        "export-pdf-2026#p8",
        "Customer service guide 2026 (PDF), page 8",
        "For hygiene and safety reasons the following cannot be returned unless faulty: "
        "underwear, swimwear, pierced jewellery, opened software and personalised items. Gift "
        "cards are never refundable. Ask customer service before you send back anything on this "
        "list: a return that cannot be accepted is sent back to you.",
    ),
    (
        "export-pdf-2026#p9",
        "Customer service guide 2026 (PDF), page 9",
        "Warranty: two years on every electrical product from delivery; batteries covered when "
        "they keep less than 70 percent of capacity; free courier collection for claims; full "
        "refund when neither repair nor replacement is possible. "
        "Claims are made from the order page; extended plans can be bought within 60 days.",
    ),
    (
        "export-pdf-2026#p12",
        "Customer service guide 2026 (PDF), page 12",
        "Escalate to a team lead when a customer mentions a lawyer, the press or a safety "
        "problem such as smoke, sparks or burns; when a refund would exceed your approval "
        "limit; or when the same order has had three contacts without a solution.",
    ),
]

# --------------------------------------------------------------------------------------------
PRODUCT_GUIDES: list[Chunk] = [
    (
        "guide-thermostat#install",
        "Smart thermostat: installation",
        "Switch off the heating at the fuse box before you start. Remove the old thermostat, "
        "label the wires, and connect them to the matching terminals of the base plate. Most "
        "homes need only the two-wire connection; a heat pump needs the extra C wire.",
    ),
    (
        "guide-thermostat#wifi",
        "Smart thermostat: connecting to wifi",
        "The thermostat works with 2.4 GHz wifi networks only. Hold the dial for 5 seconds until "
        "the screen shows a wifi symbol, then follow the steps in the Larkspur app. If the "
        "network is not listed, move the router closer or split its 5 GHz band.",
    ),
    (
        "guide-thermostat#schedule",
        "Smart thermostat: heating schedule",
        "Set a weekly schedule in the app with up to six temperature changes per day. Eco mode "
        "lowers the temperature when the app sees that everyone has left home. A manual change "
        "on the dial lasts until the next scheduled change.",
    ),
    (
        "guide-thermostat#reset",
        "Smart thermostat: factory reset",
        "To reset the thermostat, hold the dial and the back button together for 15 seconds "
        "until the screen turns blue. The schedule and wifi settings are erased; the device "
        "stays linked to your account and can be set up again in the app.",
    ),
    (
        "guide-thermostat#error-codes",
        "Smart thermostat: error codes",
        "E1 means the thermostat gets no power: check the fuse and the wires. E2 means the "
        "boiler does not answer. E4 means the temperature sensor is faulty, which is covered by "
        "the warranty. Any other code: restart the device and contact us if it stays.",
    ),
    (
        "guide-earbuds#pairing",
        "Wireless earbuds: pairing",
        "Open the case with both earbuds inside and hold the button on the case for 3 seconds "
        "until the light blinks white. Choose 'Larkspur Buds' in your phone's Bluetooth list. To "
        "pair a second phone, repeat the steps; the earbuds remember eight devices.",
    ),
    (
        "guide-earbuds#charging",
        "Wireless earbuds: charging and battery",
        "A full charge gives 7 hours of listening, and the case holds three more charges. Ten "
        "minutes in the case gives one hour. Use a USB-C cable or a wireless charging pad. A "
        "red light on the case means its own battery is nearly empty.",
    ),
    (
        "guide-earbuds#one-side",
        "Wireless earbuds: sound from one side only",
        "If you hear sound in only one earbud, put both back in the case for 10 seconds, then "
        "take them out together. If that does not help, forget the earbuds in your phone's "
        "Bluetooth settings, reset them, and pair them again.",
    ),
    (
        "guide-earbuds#reset",
        "Wireless earbuds: resetting",
        "Put both earbuds in the case, keep the lid open, and hold the case button for 15 "
        "seconds until the light blinks red and then white. This clears all paired devices. "
        "Remove the earbuds from your phone's Bluetooth list before pairing again.",
    ),
    (
        "guide-earbuds#noise-cancelling",
        "Wireless earbuds: noise cancelling",
        "Press and hold either earbud for two seconds to switch between noise cancelling, "
        "transparency mode and off. Noise cancelling works best with ear tips that seal well: "
        "try the three sizes in the box. It shortens battery life by about an hour.",
    ),
    (
        "guide-vacuum#setup",
        "Robot vacuum: first setup",
        "Place the dock against a wall with half a metre free on each side and a metre in "
        "front. Remove the protective strips, charge the robot for three hours, then add it in "
        "the Larkspur app. The first run maps your home; stay nearby and open all doors.",
    ),
    (
        "guide-vacuum#no-go",
        "Robot vacuum: no-go zones",
        "After the first map is saved, draw no-go zones and invisible walls in the app to keep "
        "the robot away from pet bowls, rugs with fringes or cables. Zones are stored per floor "
        "when you save more than one map.",
    ),
    (
        "guide-vacuum#brushes",
        "Robot vacuum: cleaning the brushes",
        "Hair wrapped around the main brush is the most common reason for weak suction. Once a "
        "week, remove the brush, cut the hair with the tool under the lid and empty the bin. "
        "Replace the side brushes every three months and the filter every two.",
    ),
    (
        "guide-vacuum#error-codes",
        "Robot vacuum: error messages",
        "'Wheel stuck' means the robot is trapped or a wheel is blocked by hair. 'Cliff sensor "
        "error' means the sensors underneath are dirty: wipe them with a dry cloth. 'Cannot find "
        "dock' usually means the dock was moved or unplugged.",
    ),
    (
        "guide-coffee#descale",
        "Bean-to-cup coffee machine: descaling",
        "Descale when the orange light blinks, about every two months with hard water. Fill the "
        "tank with half a litre of water and one bottle of descaler, place a bowl under the "
        "spout and hold the two cup buttons for 5 seconds. The cycle takes 25 minutes.",
    ),
    (
        "guide-coffee#cleaning",
        "Bean-to-cup coffee machine: daily cleaning",
        "Empty the drip tray and the grounds container every day, and rinse the milk system "
        "after every use: the machine asks for it. Take out the brewing unit once a week and "
        "rinse it under the tap without soap. "
        "Never put the brewing unit in the dishwasher.",
    ),
    (
        "guide-coffee#weak",
        "Bean-to-cup coffee machine: watery or weak coffee",
        "Turn the grinder to a finer setting one step at a time, while it grinds. Use fresh "
        "beans: oily dark roasts clog the grinder. If the coffee stays watery, clean the "
        "brewing unit, because old grounds stop it from pressing the coffee.",
    ),
    (
        "guide-app#notifications",
        "Larkspur app: notifications",
        "Choose which notifications you get under Profile, Notifications: delivery updates, "
        "price drops on your wishlist, and offers. Delivery updates can also go by text "
        "message. If nothing arrives, allow notifications for the app in your phone's settings. "
        "Quiet hours stop notifications at night.",
    ),
    (
        "guide-app#wishlist",
        "Larkspur app: wishlists",
        "Tap the heart on any product to save it. You can make several wishlists, share them "
        "with a link, and get a message when a saved item drops in price or is back in stock. "
        "Wishlists are kept in your account and shown on every device.",
    ),
    (
        "guide-app#scan",
        "Larkspur app: scanning in store",
        "In our stores, scan a product's barcode with the app to see reviews, other colours and "
        "whether it can be delivered today. Scanned items can be paid in the app and picked up "
        "at the exit, without queueing at the till.",
    ),
]

# --------------------------------------------------------------------------------------------
OTHER: list[Chunk] = [
    (
        "help-contact#channels",
        "Contact us: chat, phone and email",
        "Chat with us in the app or on the website, call 020 555 0100, or write to "
        "help@larkspur.example. Chat and phone are open Monday to Friday from 8 am to 8 pm and "
        "Saturday from 9 am to 5 pm; email is answered within one business day.",
    ),
    (
        "help-contact#callback",
        "Contact us: request a callback",
        "Don't want to wait on the line? Ask for a callback in the app and choose a half-hour "
        "slot. We call you from 020 555 0100. If you miss the call, we try once more ten "
        "minutes later and then send a message.",
    ),
    (
        "help-stores#click-collect",
        "Stores: click and collect",
        "Order online before 2 pm and collect the same day from 5 pm at any of our 24 stores; "
        "click and collect is free. Bring the collection code from your email. We keep your "
        "order for 10 days before it is cancelled and refunded.",
    ),
    (
        "help-stores#in-store-returns",
        "Stores: returning online orders in a store",
        "Online orders can be returned in any store, except furniture. Bring the item and the "
        "order number; the refund is started at the till and paid within the usual time. In-"
        "store returns are free, with no return shipping fee. "
        "Bring your payment card for card refunds.",
    ),
    (
        "help-stores#opening-hours",
        "Stores: opening hours",
        "Our stores are open Monday to Saturday from 9:30 am to 6 pm, with late opening until "
        "9 pm on Thursdays. Most stores open on Sundays from noon to 5 pm. Holiday hours are "
        "shown on each store's page. "
        "Customer service desks in stores close 30 minutes earlier.",
    ),
    (
        "help-loyalty#points",
        "Larkspur Club: earning points",
        "Club members earn one point for every euro spent, online and in stores. Every 250 "
        "points become a 5 euro voucher, sent by email. Points for an order are added when its "
        "return window ends. "
        "Points are shown in the app under Club, with the date each batch expires. Points cannot "
        "be earned on gift cards.",
    ),
    (
        "help-loyalty#expiry",
        "Larkspur Club: when points expire",
        "Points expire 24 months after you earned them. Vouchers made from points are valid for "
        "6 months. Points are not paid out in cash and cannot be moved to another member's "
        "account. "
        "We remind you by email one month before points expire, so that you can use them in time.",
    ),
    (
        "help-loyalty#tiers",
        "Larkspur Club: Gold membership",
        "Members who spend more than 1,000 euros in a calendar year become Gold members for the "
        "next year: free express delivery, a 60-day return window, and early access to sales. "
        "Gold status is checked on 1 January each year and lasts the whole calendar year, whatever"
        " you spend in it.",
    ),
    (
        "help-sustainability#packaging",
        "Sustainability: our packaging",
        "Our boxes are made of recycled cardboard and sealed with paper tape, so the whole box "
        "can go in paper recycling. We no longer use plastic air pillows; fragile items are "
        "protected with moulded paper pulp. "
        "Small orders are sent in paper envelopes instead of boxes.",
    ),
    (
        "help-sustainability#recycling",
        "Sustainability: recycling old electronics",
        "When we deliver a new large appliance, we take your old one away for free. Small "
        "electronics, batteries and light bulbs can be dropped in the recycling boxes at every "
        "store entrance, whether you bought them from us or not.",
    ),
    (
        "help-sustainability#trade-in",
        "Sustainability: trade in your old phone or tablet",
        "Trade in a phone, tablet or laptop in a store or by post and get store credit. The "
        "value depends on the model and its condition; we give a quote online in two minutes. "
        "Devices are wiped, then refurbished or recycled.",
    ),
    (
        "help-accessibility#assistance",
        "Accessibility: help in our stores",
        "Every store has wheelchairs and magnifiers at the entrance and staff trained to "
        "help. Book a personal shopping assistant for a quiet hour through the store page. "
        "Assistance dogs are always welcome. "
        "Large-print price lists and hearing loops are available at every customer service desk on"
        " request.",
    ),
    (
        "help-security#phishing",
        "Security: fake messages in our name",
        "We never ask for your password, card details or a payment by text message, and our "
        "emails only link to larkspur.example. If you receive a message asking you to pay "
        "customs fees or confirm a delivery, do not click; forward it to abuse@larkspur.example.",
    ),
    (
        "release-notes-2026#checkout",
        "Release notes 2026: new checkout",
        "The new checkout shows delivery costs before you enter your address, saves your "
        "preferred payment method, and lets you split a basket into two deliveries. Gift "
        "messages can now be added per item. "
        "The old checkout stays available for a few weeks under 'Classic checkout' for those who "
        "prefer it.",
    ),
    (
        "release-notes-2026#app-dark-mode",
        "Release notes 2026: dark mode and larger text",
        "Version 5 of the app follows your phone's dark mode and text size. Product pages can be "
        "read aloud with the phone's screen reader; every image has a description. "
        "Dark mode can also be switched on by hand under Profile, Display, for those who want it "
        "only in our app.",
    ),
]

# --------------------------------------------------------------------------------------------
# Three business storefronts built from one template (same structure, their own facts).
TENANT_TEMPLATE: list[tuple[str, str, str]] = [
    (
        "overview",
        "{name}: about this storefront",
        "{name} runs its own storefront on the Larkspur Business platform for its {audience}. "
        "Products, prices and delivery are Larkspur's; {name} sets the catalogue, the budget "
        "rules and who may order. Questions about an order go to {name}'s own help desk first.",
    ),
    (
        "returns",
        "{name}: returns from the storefront",
        "Items ordered through the {name} storefront can be returned within {return_days} days "
        "of delivery. {return_rule} Returns are booked by {name}'s office manager, not by the "
        "person who ordered. Refunds go back to the company invoice.",
    ),
    (
        "sso",
        "{name}: signing in with single sign-on",
        "Employees of {name} sign in to the storefront with their company account through "
        "{sso}. Passwords and two-step verification are managed by the company, not by Larkspur. "
        "New employees get access within "
        "{provision_hours} hours of being added to the company directory.",
    ),
    (
        "billing",
        "{name}: billing and invoices",
        "{name} is billed {billing_cycle} by invoice, payable within {payment_days} days. "
        "Orders above {approval_limit} euros need approval from {approver} before they are "
        "placed. Invoices go to {invoice_email}. Delivery costs are included in the invoice; there "
        "is no charge per parcel.",
    ),
    (
        "support",
        "{name}: support hours and contacts",
        "The {name} help desk is open {support_hours}. Urgent problems outside those hours go "
        "to Larkspur's business line, 020 555 0190. {name}'s account manager at Larkspur is "
        "{manager}. Requests for new products in the catalogue go through the account manager.",
    ),
    (
        "data-retention",
        "{name}: data retention",
        "Order history of {name} employees is kept for {retention_months} months and then "
        "anonymised. When an employee leaves, their storefront account is closed within "
        "{offboard_days} days of being removed from the company directory. Open orders of a "
        "leaver are moved to their team's administrator.",
    ),
    (
        "admin-roles",
        "{name}: administrator roles",
        "{name} has {admin_count} storefront administrators. Administrators manage the "
        "catalogue, the budget per team and the list of delivery addresses. Only the owner "
        "role, held by {owner}, can add administrators. Every change an administrator makes is "
        "written to an audit log that the owner can download.",
    ),
    (
        "api",
        "{name}: ordering through the API",
        "{name}'s procurement system places orders through the Larkspur Business API with a "
        "limit of {api_limit} requests per minute. Keys are rotated every {key_days} days by "
        "the owner. Orders placed through the API follow the same approval rules and show up "
        "in the storefront's order history.",
    ),
]
TENANTS = {
    "tenant-acme": {
        "name": "Acme Corporation",
        "audience": "1,200 office staff in three countries",
        "return_days": "60",
        "return_rule": "Unopened office furniture can be returned too, with a collection "
        "fee of 49 euros.",
        "sso": "Okta",
        "provision_hours": "4",
        "billing_cycle": "monthly",
        "payment_days": "30",
        "approval_limit": "2,500",
        "approver": "the finance team",
        "invoice_email": "ap@acme.example",
        "support_hours": "Monday to Friday from 7 am to 7 pm",
        "manager": "Lotte de Vries",
        "retention_months": "36",
        "offboard_days": "2",
        "admin_count": "four",
        "owner": "Acme's head of procurement",
        "api_limit": "120",
        "key_days": "90",
    },
    "tenant-globex": {
        "name": "Globex",
        "audience": "engineering and laboratory teams",
        "return_days": "30",
        "return_rule": "Laboratory equipment that has been opened cannot be returned.",
        "sso": "Microsoft Entra ID",
        "provision_hours": "24",
        "billing_cycle": "quarterly",
        "payment_days": "45",
        "approval_limit": "10,000",
        "approver": "the head of the ordering team",
        "invoice_email": "invoices@globex.example",
        "support_hours": "around the clock, every day",
        "manager": "Samir Haddad",
        "retention_months": "84",
        "offboard_days": "1",
        "admin_count": "two",
        "owner": "Globex's IT director",
        "api_limit": "600",
        "key_days": "30",
    },
    "tenant-initech": {
        "name": "Initech",
        "audience": "staff working from home",
        "return_days": "14",
        "return_rule": "Home office chairs and desks can only be returned if they are faulty.",
        "sso": "Google Workspace",
        "provision_hours": "1",
        "billing_cycle": "every two weeks",
        "payment_days": "14",
        "approval_limit": "750",
        "approver": "the employee's manager",
        "invoice_email": "billing@initech.example",
        "support_hours": "Monday to Thursday from 9 am to 5 pm",
        "manager": "Bill Lumbergh",
        "retention_months": "12",
        "offboard_days": "7",
        "admin_count": "one",
        "owner": "Initech's office manager",
        "api_limit": "30",
        "key_days": "365",
    },
}

# --------------------------------------------------------------------------------------------
# Questions in the users' own words, and the ground truth: every chunk of the corpus that answers
# each one (2 = answers it, 1 = helps), written by the labelpool developers with the corpus.
# Superseded versions (last year's policies) never answer a question about the current rules.
DAMAGED = {
    "policy-returns-v3#sec-2": 2,
    "faq-shipping#damaged": 2,
    "handbook#returns-damaged": 2,
    "export-pdf-2026#p7": 2,
    "export-pdf-2026#p5": 1,
}
QUESTIONS: list[tuple[str, str, dict[str, int]]] = [
    ("returns-damaged", "My parcel arrived damaged. Can I send it back?", DAMAGED),
    (
        "box-crushed-refund",
        "The courier crushed the box and the lamp inside is in pieces. Do I get my money back?",
        DAMAGED,
    ),
    (
        "return-window",
        "How long do I have to change my mind about something I bought?",
        {
            "policy-returns-v3#sec-3": 2,
            "export-pdf-2026#p6": 2,
            "export-pdf-2026#p5": 1,
            "help-loyalty#tiers": 1,
        },
    ),
    (
        "return-cost",
        "Is it free to send stuff back if I just don't like it?",
        {
            "policy-returns-v3#sec-3": 2,
            "export-pdf-2026#p6": 2,
            "export-pdf-2026#p5": 1,
            "help-stores#in-store-returns": 1,
        },
    ),
    (
        "refund-how-long",
        "How many days until my refund is paid after I return something?",
        {"policy-returns-v3#sec-4": 2, "faq-returns#refund-status": 1, "export-pdf-2026#p5": 1},
    ),
    (
        "swap-size",
        "These shoes are too small. Can I exchange them for a bigger size?",
        {"faq-returns#wrong-size": 2, "policy-returns-v3#sec-5": 2},
    ),
    ("sale-returns", "Can I return a lamp I bought in the sale?", {"policy-returns-v3#sec-7": 2}),
    (
        "non-returnable",
        "Which items cannot be returned?",
        {"policy-returns-v3#sec-6": 2, "export-pdf-2026#p8": 2},
    ),
    (
        "no-printer",
        "I have no printer to print the return label",
        {"faq-returns#no-printer": 2, "faq-returns#start": 1},
    ),
    (
        "gift-return",
        "My aunt gave me a present I don't want. Can I return it without her knowing?",
        {"faq-returns#gift": 2},
    ),
    (
        "return-in-store",
        "Can I return an online order in a store?",
        {"help-stores#in-store-returns": 2},
    ),
    (
        "warranty-length",
        "How many years of warranty do I get on electrical products?",
        {"policy-warranty-v2#sec-2": 2, "export-pdf-2026#p9": 2, "policy-warranty-v2#sec-1": 1},
    ),
    (
        "warranty-claim",
        "My coffee machine stopped working after 8 months. What do I do?",
        {
            "policy-warranty-v2#sec-4": 2,
            "policy-warranty-v2#sec-1": 1,
            "policy-warranty-v2#sec-5": 1,
            "handbook#warranty-triage": 1,
        },
    ),
    (
        "warranty-dropped",
        "I dropped my earbuds and one of them cracked. Is that covered?",
        {"policy-warranty-v2#sec-3": 2, "policy-warranty-v2#sec-6": 1},
    ),
    (
        "extended-warranty",
        "Can I still pay for extra years of cover once my vacuum has arrived?",
        {"policy-warranty-v2#sec-6": 2},
    ),
    (
        "battery-warranty",
        "My earbuds barely hold a charge any more after a year and a half. Will you fix that?",
        {"policy-warranty-v2#sec-2": 2, "export-pdf-2026#p9": 2, "guide-earbuds#charging": 1},
    ),
    (
        "privacy-data-kept",
        "How long do you keep my browsing data?",
        {"policy-privacy-2026#sec-3": 2},
    ),
    (
        "privacy-delete",
        "I want you to erase everything you know about me",
        {"policy-privacy-2026#sec-6": 2, "faq-account#delete": 2},
    ),
    (
        "privacy-ads",
        "Do you sell my shopping habits to advertisers?",
        {"policy-privacy-2026#sec-4": 2, "policy-privacy-2026#sec-2": 1},
    ),
    (
        "cookies",
        "How do I stop the website from following me around?",
        {"policy-privacy-2026#sec-5": 2},
    ),
    (
        "parcel-lost",
        "My package hasn't moved for over a week, what now?",
        {"policy-shipping#sec-5": 2, "export-pdf-2026#p4": 2, "faq-shipping#late": 2},
    ),
    (
        "delivered-not-received",
        "Tracking says delivered but there's nothing at my door",
        {"faq-shipping#not-received": 2},
    ),
    (
        "change-address",
        "I typed the wrong street. Can I change the delivery address?",
        {"policy-shipping#sec-6": 2},
    ),
    (
        "delivery-cost",
        "How much extra do I pay to have my order brought to my house?",
        {"policy-shipping#sec-2": 2, "policy-shipping#sec-3": 1, "faq-shipping#weekend": 1},
    ),
    (
        "international",
        "Do you send orders to Switzerland?",
        {"policy-shipping#sec-3": 2, "policy-shipping#sec-4": 1, "faq-payments#currency": 1},
    ),
    (
        "customs-fee-text",
        "I got a text asking me to pay import charges for my parcel. Is it real?",
        {"help-security#phishing": 2, "policy-shipping#sec-4": 2},
    ),
    ("missing-item", "Half of what I paid for wasn't in the box", {"faq-orders#missing-item": 2}),
    (
        "wrong-item",
        "I received the wrong item: a blue kettle instead of the red one I ordered",
        {"faq-orders#wrong-item": 2},
    ),
    ("cancel-order", "I bought something by mistake, how do I stop it?", {"faq-orders#cancel": 2}),
    (
        "payment-declined",
        "Why was my card payment declined at checkout?",
        {"faq-payments#declined": 2},
    ),
    ("pay-instalments", "Can I spread the cost over a few months?", {"faq-payments#pay-later": 2}),
    (
        "vat-invoice",
        "I need an invoice with my company name and VAT number",
        {"faq-payments#invoice": 2},
    ),
    (
        "forgot-password",
        "I can't remember how to log in",
        {"faq-account#password": 2, "faq-account#locked": 1},
    ),
    (
        "unsubscribe",
        "How do I unsubscribe from marketing emails?",
        {"faq-account#newsletter": 2, "policy-privacy-2026#sec-2": 1},
    ),
    (
        "thermostat-wifi",
        "My thermostat won't connect to my wifi network",
        {"guide-thermostat#wifi": 2},
    ),
    (
        "earbuds-one-side",
        "Only the left earbud plays sound",
        {"guide-earbuds#one-side": 2, "guide-earbuds#reset": 1},
    ),
    (
        "vacuum-weak",
        "My robot vacuum has weak suction and leaves dirt behind",
        {"guide-vacuum#brushes": 2},
    ),
    (
        "coffee-weak",
        "My espresso tastes like water",
        {"guide-coffee#weak": 2, "guide-coffee#cleaning": 1},
    ),
    (
        "talk-to-human",
        "What number do I ring to talk to a real person?",
        {"help-contact#channels": 2, "help-contact#callback": 1, "export-pdf-2026#p3": 1},
    ),
    (
        "acme-returns",
        "How many days do Acme employees have to return items from the storefront?",
        {"tenant-acme#returns": 2},
    ),
    ("globex-sso", "How do Globex employees sign in to the storefront?", {"tenant-globex#sso": 2}),
    (
        "initech-approval",
        "Whose approval do Initech orders above the limit need?",
        {"tenant-initech#billing": 2},
    ),
    (
        "globex-api-limit",
        "What is the maximum number of API requests per minute for Globex?",
        {"tenant-globex#api": 2},
    ),
    (
        "heater-smoking",
        "A customer says their heater started smoking. What should I do?",
        {"handbook#escalation": 2, "export-pdf-2026#p12": 2, "handbook#warranty-triage": 1},
    ),
    (
        "agent-refund-limit",
        "As an agent, what is my approval limit for refunds?",
        {"handbook#approval-limits": 2},
    ),
    # Questions about one product whose answer is a policy (product pages are lexical and
    # topical neighbours).
    (
        "lamp-warranty",
        "My desk lamp stopped working after a year, is the warranty still valid?",
        {"policy-warranty-v2#sec-2": 2, "export-pdf-2026#p9": 2, "policy-warranty-v2#sec-4": 1},
    ),
    (
        "kettle-warranty",
        "Is my kettle still under warranty after 18 months?",
        {"policy-warranty-v2#sec-2": 2, "export-pdf-2026#p9": 2},
    ),
    (
        "air-fryer-used",
        "Can I return the air fryer if I've used it once?",
        {"policy-returns-v3#sec-3": 2, "export-pdf-2026#p6": 2},
    ),
    (
        "towels-return-days",
        "I want to return the towels I bought, how many days do I have?",
        {"policy-returns-v3#sec-3": 2, "export-pdf-2026#p6": 2, "export-pdf-2026#p5": 1},
    ),
    (
        "table-cracked",
        "The oak table arrived with a crack in the top",
        {
            "policy-returns-v3#sec-2": 2,
            "faq-shipping#damaged": 2,
            "handbook#returns-damaged": 2,
            "export-pdf-2026#p7": 2,
            "export-pdf-2026#p5": 1,
        },
    ),
    # Broad questions: many chunks answer part of them.
    (
        "returns-overview",
        "How do returns and refunds work?",
        {
            "policy-returns-v3#sec-1": 1,
            "policy-returns-v3#sec-2": 1,
            "policy-returns-v3#sec-3": 2,
            "policy-returns-v3#sec-4": 2,
            "policy-returns-v3#sec-5": 1,
            "policy-returns-v3#sec-6": 1,
            "policy-returns-v3#sec-7": 1,
            "export-pdf-2026#p5": 2,
            "export-pdf-2026#p6": 2,
            "export-pdf-2026#p7": 1,
            "export-pdf-2026#p8": 1,
            "faq-returns#start": 2,
            "faq-returns#no-printer": 1,
            "faq-returns#refund-status": 1,
            "faq-returns#gift": 1,
            "faq-returns#wrong-size": 1,
            "faq-shipping#damaged": 1,
            "handbook#returns-damaged": 1,
            "help-stores#in-store-returns": 1,
        },
    ),
    (
        "delivery-options",
        "What are the delivery options and how much do they cost?",
        {
            "policy-shipping#sec-1": 2,
            "policy-shipping#sec-2": 2,
            "policy-shipping#sec-3": 1,
            "faq-shipping#weekend": 1,
            "faq-shipping#pickup-points": 1,
            "help-stores#click-collect": 1,
            "help-loyalty#tiers": 1,
        },
    ),
    (
        "warranty-overview",
        "What does the warranty cover and how do I make a claim?",
        {
            "policy-warranty-v2#sec-1": 2,
            "policy-warranty-v2#sec-2": 1,
            "policy-warranty-v2#sec-3": 2,
            "policy-warranty-v2#sec-4": 2,
            "policy-warranty-v2#sec-5": 1,
            "export-pdf-2026#p9": 1,
            "handbook#warranty-triage": 1,
        },
    ),
    (
        "personal-data",
        "What do you do with my personal data?",
        {
            "policy-privacy-2026#sec-1": 2,
            "policy-privacy-2026#sec-2": 2,
            "policy-privacy-2026#sec-3": 1,
            "policy-privacy-2026#sec-4": 2,
            "policy-privacy-2026#sec-5": 1,
            "policy-privacy-2026#sec-6": 1,
        },
    ),
    (
        "payments-overview",
        "How do payments work: which methods, gift cards, paying later?",
        {
            "faq-payments#methods": 2,
            "faq-payments#gift-cards": 2,
            "faq-payments#pay-later": 2,
            "faq-payments#currency": 1,
            "faq-payments#declined": 1,
        },
    ),
    (
        "agent-complaints",
        "What should an agent do when a customer complains?",
        {
            "handbook#escalation": 2,
            "handbook#goodwill": 2,
            "handbook#tone": 2,
            "handbook#approval-limits": 1,
            "export-pdf-2026#p12": 2,
        },
    ),
    (
        "delivery-problems",
        "How does my parcel get delivered and what if it goes wrong?",
        {
            "policy-shipping#sec-1": 1,
            "policy-shipping#sec-5": 2,
            "export-pdf-2026#p4": 2,
            "faq-shipping#late": 2,
            "faq-shipping#not-received": 1,
            "faq-shipping#tracking": 1,
            "faq-shipping#signature": 1,
            "faq-shipping#damaged": 1,
            "policy-returns-v3#sec-2": 1,
            "handbook#returns-damaged": 1,
            "export-pdf-2026#p7": 1,
        },
    ),
    (
        "earbuds-problems",
        "Problems with my wireless earbuds",
        {
            "guide-earbuds#pairing": 1,
            "guide-earbuds#charging": 1,
            "guide-earbuds#one-side": 2,
            "guide-earbuds#reset": 2,
            "guide-earbuds#noise-cancelling": 1,
        },
    ),
    # Not judged yet in labels/ (see runs/make_runs.py).
    ("sunday-opening", "Are your shops open on Sundays?", {"help-stores#opening-hours": 2}),
    (
        "app-night-theme",
        "Does the app have a night theme?",
        {"release-notes-2026#app-dark-mode": 2},
    ),
]

# --------------------------------------------------------------------------------------------
# Product pages, built from the shop's product template: an overview, a "delivery and returns"
# tab (the same wording for every product of a delivery kind, pointing to the policies without
# repeating their facts) and a care tab.
PRODUCT_TEMPLATE: list[tuple[str, str, str]] = [
    (
        "overview",
        "{name}: product overview",
        "{name}, {price} euros. {description} {spec} Rated {rating} out of 5 by {reviews} "
        "customers. Part of the {collection} collection; matching pieces are shown below the "
        "photos.",
    ),
    (
        "delivery-returns",
        "{name}: delivery and returns",
        "{delivery} You can follow your order in your account once it has left the warehouse. "
        "Returns follow our returns policy; the return window and any fee are shown there and "
        "in your order confirmation. This product carries the Larkspur warranty where it "
        "applies; see the warranty policy for what it covers.",
    ),
    (
        "care",
        "{name}: care and use",
        "{care} Keep the product away from direct heat and strong sunlight. Questions about "
        "using it? Ask in the questions section below the product photos, where other customers "
        "and our staff answer.",
    ),
]
DELIVERY_KINDS = {
    "parcel": "This product is sent as a parcel by courier, to your door or to a pickup point "
    "of your choice.",
    "two-person": "This product is delivered by a two-person crew on a day you choose, carried "
    "into the room you want and unpacked.",
    "letterbox": "This product fits through the letterbox: no need to be home for the delivery.",
}
PRODUCTS: dict[str, dict[str, str]] = {
    "product-oak-table": {
        "name": "Halden oak dining table",
        "price": "649",
        "kind": "two-person",
        "description": "A solid oak table for six, with a natural oil finish.",
        "spec": "200 by 95 cm, 76 cm high; the legs unscrew for moving.",
        "rating": "4.7",
        "reviews": "312",
        "collection": "Halden",
        "care": "Wipe with a damp cloth and dry at once. Re-oil the top once a year with the "
        "oil sold beside the table; use coasters for hot dishes.",
    },
    "product-linen-sofa": {
        "name": "Marle three-seat linen sofa",
        "price": "1,190",
        "kind": "two-person",
        "description": "A deep sofa with removable linen-blend covers and feather-wrapped "
        "cushions.",
        "spec": "220 cm wide, 95 cm deep; covers in five colours.",
        "rating": "4.5",
        "reviews": "188",
        "collection": "Marle",
        "care": "The covers can be washed at 30 degrees and dried flat. Plump the cushions "
        "every week so that they keep their shape.",
    },
    "product-wool-rug": {
        "name": "Fjell hand-woven wool rug",
        "price": "289",
        "kind": "parcel",
        "description": "A flat-woven rug of undyed wool, made by hand in India.",
        "spec": "160 by 230 cm; also in 200 by 300 cm.",
        "rating": "4.6",
        "reviews": "97",
        "collection": "Fjell",
        "care": "Vacuum without the brush roller. Blot spills at once; have the rug cleaned "
        "by a professional rather than washing it.",
    },
    "product-desk-lamp": {
        "name": "Arc brass desk lamp",
        "price": "129",
        "kind": "parcel",
        "description": "An adjustable desk lamp in brushed brass with a dimmable LED.",
        "spec": "45 cm reach; 2700 K warm light; USB-C port in the base.",
        "rating": "4.4",
        "reviews": "421",
        "collection": "Arc",
        "care": "Dust with a dry cloth. The brass darkens over time; a brass polish brings "
        "the shine back. The LED is built in and lasts about 25,000 hours.",
    },
    "product-floor-lamp": {
        "name": "Arc floor lamp",
        "price": "219",
        "kind": "parcel",
        "description": "A tall reading lamp with a linen shade and a foot switch.",
        "spec": "160 cm high; E27 bulb, not included.",
        "rating": "4.3",
        "reviews": "156",
        "collection": "Arc",
        "care": "Dust the shade with a soft brush. Use bulbs of at most 40 watts; switch "
        "the lamp off before changing the bulb.",
    },
    "product-stoneware-vase": {
        "name": "Tide stoneware vase",
        "price": "39",
        "kind": "parcel",
        "description": "A hand-glazed stoneware vase; every piece differs slightly.",
        "spec": "28 cm high; watertight inside.",
        "rating": "4.8",
        "reviews": "264",
        "collection": "Tide",
        "care": "Rinse by hand with warm water. Not dishwasher safe; small differences in "
        "glaze are part of the handmade finish, not a defect.",
    },
    "product-bath-towels": {
        "name": "Sande cotton bath towels, set of two",
        "price": "45",
        "kind": "letterbox",
        "description": "Thick organic cotton towels with a waffle border.",
        "spec": "70 by 140 cm; 600 grams per square metre.",
        "rating": "4.6",
        "reviews": "530",
        "collection": "Sande",
        "care": "Wash at 60 degrees without fabric softener, which makes towels less "
        "absorbent. Tumble dry on low heat.",
    },
    "product-duvet": {
        "name": "Nord all-season duvet",
        "price": "159",
        "kind": "parcel",
        "description": "Two duvets that button together: a light one for summer, both for winter.",
        "spec": "240 by 220 cm; filled with recycled down.",
        "rating": "4.5",
        "reviews": "203",
        "collection": "Nord",
        "care": "Air the duvet every morning. Wash at 40 degrees in a large machine and dry "
        "it completely with tennis balls in the dryer.",
    },
    "product-kettle": {
        "name": "Loop electric kettle",
        "price": "69",
        "kind": "parcel",
        "description": "A 1.5 litre kettle with temperature settings for tea and coffee.",
        "spec": "2200 watts; keep-warm for 30 minutes; in red, blue and white.",
        "rating": "4.4",
        "reviews": "688",
        "collection": "Loop",
        "care": "Descale once a month with citric acid or vinegar if your water is hard. "
        "Never immerse the base in water.",
    },
    "product-toaster": {
        "name": "Loop two-slot toaster",
        "price": "59",
        "kind": "parcel",
        "description": "A wide-slot toaster with a bagel setting and a warming rack.",
        "spec": "Seven browning levels; removable crumb tray.",
        "rating": "4.2",
        "reviews": "402",
        "collection": "Loop",
        "care": "Empty the crumb tray every week. Unplug before cleaning and never use a "
        "knife to free stuck bread.",
    },
    "product-blender": {
        "name": "Vive high-speed blender",
        "price": "149",
        "kind": "parcel",
        "description": "A blender for smoothies, soups and nut butters with a glass jar.",
        "spec": "1.8 litre jar; 1400 watts; five programmes.",
        "rating": "4.5",
        "reviews": "244",
        "collection": "Vive",
        "care": "Clean the jar by blending warm water with a drop of soap for 30 seconds. "
        "The blades are not removable.",
    },
    "product-air-fryer": {
        "name": "Vive air fryer",
        "price": "119",
        "kind": "parcel",
        "description": "A 5.5 litre air fryer with a window to watch the food.",
        "spec": "Eight presets; dishwasher-safe basket.",
        "rating": "4.6",
        "reviews": "915",
        "collection": "Vive",
        "care": "Let the basket cool before washing it. Do not use metal tools on the "
        "non-stick coating; a soft sponge is enough.",
    },
    "product-office-chair": {
        "name": "Tern ergonomic office chair",
        "price": "349",
        "kind": "parcel",
        "description": "An office chair with lumbar support, adjustable arms and a mesh back.",
        "spec": "For people from 155 to 195 cm; tested to 120 kg.",
        "rating": "4.3",
        "reviews": "377",
        "collection": "Tern",
        "care": "Vacuum the seat and wipe the mesh with a damp cloth. Tighten the screws "
        "of the arms after the first month.",
    },
    "product-bookcase": {
        "name": "Halden oak bookcase",
        "price": "429",
        "kind": "two-person",
        "description": "A tall bookcase of solid oak with five adjustable shelves.",
        "spec": "90 cm wide, 200 cm high; must be fixed to the wall.",
        "rating": "4.6",
        "reviews": "121",
        "collection": "Halden",
        "care": "Wipe with a dry cloth. Fix the bookcase to the wall with the bracket "
        "supplied, especially if there are children in the house.",
    },
    "product-cast-iron-pan": {
        "name": "Forge cast iron frying pan",
        "price": "55",
        "kind": "parcel",
        "description": "A pre-seasoned cast iron pan for every kind of hob, including induction.",
        "spec": "28 cm; oven safe to 260 degrees.",
        "rating": "4.8",
        "reviews": "640",
        "collection": "Forge",
        "care": "Rinse with hot water, dry on the hob and rub in a drop of oil. Soap is "
        "fine now and then; the dishwasher is not.",
    },
    "product-knife-set": {
        "name": "Forge knife set with block",
        "price": "179",
        "kind": "parcel",
        "description": "Three knives of Japanese steel in an oak block.",
        "spec": "Chef's knife, bread knife and paring knife.",
        "rating": "4.7",
        "reviews": "205",
        "collection": "Forge",
        "care": "Wash by hand and dry at once. Sharpen on a whetstone twice a year; a "
        "sharpening service is offered in our stores.",
    },
    "product-bedside-table": {
        "name": "Nord bedside table",
        "price": "149",
        "kind": "parcel",
        "description": "A small bedside table with one drawer and an open shelf.",
        "spec": "45 by 35 cm, 55 cm high; flat-packed, assembly takes 20 minutes.",
        "rating": "4.4",
        "reviews": "188",
        "collection": "Nord",
        "care": "Wipe with a damp cloth. Assembly instructions can also be downloaded from "
        "this page.",
    },
    "product-wall-mirror": {
        "name": "Tide round wall mirror",
        "price": "99",
        "kind": "parcel",
        "description": "A round mirror with a thin brass frame.",
        "spec": "80 cm across; hanging cord and hooks included.",
        "rating": "4.5",
        "reviews": "143",
        "collection": "Tide",
        "care": "Clean the glass with a little glass cleaner on a cloth, never sprayed on "
        "the mirror itself, so that it does not reach the frame.",
    },
    "product-linen-curtains": {
        "name": "Marle linen curtains, pair",
        "price": "119",
        "kind": "letterbox",
        "description": "Light-filtering washed linen curtains with hidden tabs.",
        "spec": "140 by 260 cm each; can be shortened.",
        "rating": "4.4",
        "reviews": "176",
        "collection": "Marle",
        "care": "Wash at 30 degrees and hang while damp to avoid ironing. Linen may shrink "
        "by up to 3 percent at the first wash.",
    },
    "product-throw-blanket": {
        "name": "Fjell wool throw",
        "price": "79",
        "kind": "letterbox",
        "description": "A soft throw of lambswool in a herringbone weave.",
        "spec": "130 by 170 cm; fringed ends.",
        "rating": "4.7",
        "reviews": "289",
        "collection": "Fjell",
        "care": "Air the throw outside instead of washing it. If needed, wash by hand in cool "
        "water with wool detergent and dry flat.",
    },
}


def chunks() -> list[Chunk]:
    out: list[Chunk] = []
    for sections, facts in VERSIONED:
        for doc, values in facts.items():
            for sec, (heading, text) in sections.items():
                out.append((f"{doc}#{sec}", f"{values['title']}: {heading}", text.format(**values)))
    out += SHIPPING + FAQS + HANDBOOK + GUIDE_PDF + PRODUCT_GUIDES + OTHER
    for doc, values in TENANTS.items():
        for sec, heading, text in TENANT_TEMPLATE:
            out.append((f"{doc}#{sec}", heading.format(**values), text.format(**values)))
    for doc, values in PRODUCTS.items():
        values = {**values, "delivery": DELIVERY_KINDS[values["kind"]]}
        for sec, heading, text in PRODUCT_TEMPLATE:
            out.append((f"{doc}#{sec}", heading.format(**values), text.format(**values)))
    return out


def write_atomic(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def main() -> None:
    rows = chunks()
    ids = [r[0] for r in rows]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise SystemExit(f"duplicate ids: {dupes}")
    lines = [json.dumps({"_id": i, "title": t, "text": x}, ensure_ascii=False) for i, t, x in rows]
    write_atomic(HERE / "corpus.jsonl", "\n".join(lines) + "\n")
    known = set(ids)
    qids = [q[0] for q in QUESTIONS]
    if len(set(qids)) != len(qids):
        raise SystemExit("duplicate question ids")
    unknown = sorted(d for _, _, gt in QUESTIONS for d in gt if d not in known)
    if unknown:
        raise SystemExit(f"ground truth names documents missing from the corpus: {unknown}")
    write_atomic(
        HERE / "questions.jsonl",
        "".join(
            json.dumps({"_id": q, "text": t}, ensure_ascii=False) + "\n" for q, t, _ in QUESTIONS
        ),
    )
    write_atomic(
        HERE / "ground-truth.qrels",
        "".join(f"{q} 0 {d} {g}\n" for q, _, gt in QUESTIONS for d, g in sorted(gt.items())),
    )
    print(f"corpus/corpus.jsonl: {len(rows)} chunks; {len(QUESTIONS)} questions")


if __name__ == "__main__":
    main()
