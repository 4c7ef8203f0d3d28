// The built-in demo toolbox: about sixty tools over mail, calendar, drive, browser and codesearch,
// written the way real MCP servers describe their tools. `npm run demo` serves it; search is tuned on it.
import type { Tool } from '@modelcontextprotocol/client';
import { tool } from './define.js';

const RO = { ro: true } as const;
const WRITE = { idempotent: false } as const;
const DESTRUCTIVE = { destructive: true } as const;

const mail: Tool[] = [
  tool(
    'mail_search_messages',
    'Search the mailbox with Gmail-style query syntax (from:, to:, subject:, has:attachment, before:, after:, label:). Returns message ids, senders, subjects and snippets, newest first.',
    {
      query: 's! Search query, e.g. "from:alice has:attachment after:2026/01/01"',
      limit: 'i Maximum number of messages to return (default 20, max 100)',
      pageToken: 's Token from a previous page of results',
    },
    RO,
  ),
  tool(
    'mail_get_message',
    'Fetch one email message by id, with headers, plain-text body, HTML body and a list of attachments.',
    {
      messageId: 's! Id of the message',
      format: 'e(full|metadata|minimal) How much of the message to return',
    },
    RO,
  ),
  tool(
    'mail_get_thread',
    'Fetch a whole conversation thread: every message in order, with senders and bodies.',
    { threadId: 's! Id of the thread' },
    RO,
  ),
  tool(
    'mail_list_messages',
    'List messages in a mailbox folder or label, newest first, without a search query.',
    {
      label: 's Label or folder name (default INBOX)',
      unreadOnly: 'b Only unread messages',
      limit: 'i Maximum number of messages to return',
    },
    RO,
  ),
  tool(
    'mail_send_message',
    'Compose and send an email immediately. Supports cc, bcc, plain text or HTML body and file attachments from the drive.',
    {
      to: 'a! Recipient email addresses',
      subject: 's! Subject line',
      body: 's! Message body',
      cc: 'a Carbon-copy recipients',
      bcc: 'a Blind carbon-copy recipients',
      html: 'b Treat body as HTML',
      attachmentFileIds: 'a Drive file ids to attach',
    },
    WRITE,
  ),
  tool(
    'mail_reply_to_message',
    'Reply to a message in its thread, quoting it. Set replyAll to answer every recipient.',
    {
      messageId: 's! Id of the message to answer',
      body: 's! Reply text',
      replyAll: 'b Reply to all recipients',
    },
    WRITE,
  ),
  tool(
    'mail_forward_message',
    'Forward a message, with its attachments, to new recipients with an optional note on top.',
    {
      messageId: 's! Id of the message to forward',
      to: 'a! Recipient email addresses',
      note: 's Text added above the forwarded message',
    },
    WRITE,
  ),
  tool(
    'mail_create_draft',
    'Save an email as a draft without sending it, so it can be reviewed and sent later.',
    {
      to: 'a Recipient email addresses',
      subject: 's Subject line',
      body: 's Message body',
    },
    WRITE,
  ),
  tool('mail_send_draft', 'Send a previously saved draft.', { draftId: 's! Id of the draft' }, WRITE),
  tool(
    'mail_delete_message',
    'Permanently delete a message. It does not go to the trash and cannot be recovered.',
    { messageId: 's! Id of the message' },
    DESTRUCTIVE,
  ),
  tool(
    'mail_archive_message',
    'Archive a message: remove it from the inbox but keep it searchable under All Mail.',
    { messageId: 's! Id of the message' },
    { idempotent: true },
  ),
  tool(
    'mail_mark_read',
    'Mark one or more messages as read or unread.',
    { messageIds: 'a! Ids of the messages', read: 'b! true for read, false for unread' },
    { idempotent: true },
  ),
  tool('mail_list_labels', 'List every label (folder) in the mailbox with its unread and total counts.', {}, RO),
  tool(
    'mail_create_label',
    'Create a new label that messages can be filed under.',
    { name: 's! Label name; use "/" for nesting, e.g. "Clients/Acme"', color: 's Background color as hex' },
    WRITE,
  ),
  tool(
    'mail_apply_label',
    'Add labels to or remove labels from messages.',
    { messageIds: 'a! Ids of the messages', add: 'a Labels to add', remove: 'a Labels to remove' },
    { idempotent: true },
  ),
  tool(
    'mail_create_filter',
    'Create a rule that automatically labels, archives, forwards or deletes incoming mail that matches criteria.',
    {
      from: 's Sender address or domain to match',
      subject: 's Words the subject must contain',
      hasWords: 's Words anywhere in the message',
      addLabel: 's Label to apply',
      archive: 'b Skip the inbox',
      forwardTo: 's Address to forward matches to',
    },
    WRITE,
  ),
  tool(
    'mail_get_attachment',
    'Download an attachment of a message; returns its file name, MIME type and base64 content.',
    {
      messageId: 's! Id of the message',
      attachmentId: 's! Id of the attachment',
    },
    RO,
  ),
  tool(
    'mail_set_vacation_responder',
    'Turn the out-of-office auto-reply on or off, with its message and dates.',
    {
      enabled: 'b! Whether the auto-reply is on',
      subject: 's Subject of the auto-reply',
      message: 's Text of the auto-reply',
      startDate: 'd When to start',
      endDate: 'd When to stop',
    },
    { idempotent: true },
  ),
];

const calendar: Tool[] = [
  tool(
    'calendar_list_events',
    'List events on a calendar between two times, expanded from recurring series, ordered by start time.',
    {
      calendarId: 's Calendar id (default primary)',
      timeMin: 'd Start of the range',
      timeMax: 'd End of the range',
      query: 's Free-text filter on title, description and location',
      limit: 'i Maximum number of events',
    },
    RO,
  ),
  tool(
    'calendar_get_event',
    'Fetch one calendar event with attendees, their responses, conferencing link and reminders.',
    { eventId: 's! Id of the event', calendarId: 's Calendar id' },
    RO,
  ),
  tool(
    'calendar_create_event',
    'Create a calendar event and send invitations to attendees. Can add a video-conference link and make the event recurring.',
    {
      title: 's! Event title',
      start: 'd! Start time',
      end: 'd! End time',
      attendees: 'a Email addresses to invite',
      location: 's Room or address',
      description: 's Agenda or notes',
      recurrence: 's RRULE, e.g. "RRULE:FREQ=WEEKLY;BYDAY=MO"',
      addVideoLink: 'b Attach a video-conference link',
      calendarId: 's Calendar id',
    },
    WRITE,
  ),
  tool(
    'calendar_update_event',
    'Change an existing event: move it, rename it, add or remove attendees. Attendees are notified.',
    {
      eventId: 's! Id of the event',
      title: 's New title',
      start: 'd New start time',
      end: 'd New end time',
      addAttendees: 'a Email addresses to add',
      removeAttendees: 'a Email addresses to remove',
    },
    { idempotent: true },
  ),
  tool(
    'calendar_delete_event',
    'Cancel and delete an event; attendees receive a cancellation.',
    { eventId: 's! Id of the event', notifyAttendees: 'b Send cancellation emails (default true)' },
    DESTRUCTIVE,
  ),
  tool(
    'calendar_respond_to_invite',
    'Accept, decline or tentatively accept a meeting invitation, optionally with a note to the organizer.',
    {
      eventId: 's! Id of the event',
      response: 'e(accepted|declined|tentative)! Your answer',
      comment: 's Note to the organizer',
    },
    { idempotent: true },
  ),
  tool(
    'calendar_find_free_time',
    'Find time slots when all the given people are free, within working hours, for a meeting of a given length.',
    {
      attendees: 'a! Email addresses whose calendars to check',
      durationMinutes: 'i! Length of the meeting',
      timeMin: 'd Earliest start',
      timeMax: 'd Latest end',
      workingHoursOnly: 'b Only propose slots inside working hours',
    },
    RO,
  ),
  tool('calendar_list_calendars', 'List every calendar the user can see, with id, name, color and access role.', {}, RO),
  tool(
    'calendar_create_calendar',
    'Create a new secondary calendar, e.g. for a project or a team rota.',
    { name: 's! Calendar name', timeZone: 's IANA time zone' },
    WRITE,
  ),
  tool(
    'calendar_share_calendar',
    'Give another person access to a calendar: see free/busy, see details, or edit.',
    {
      calendarId: 's! Calendar id',
      email: 's! Person to share with',
      role: 'e(freeBusyReader|reader|writer|owner)! Access level',
    },
    WRITE,
  ),
  tool(
    'calendar_set_reminder',
    'Set the reminders of an event: popup or email, minutes before start.',
    {
      eventId: 's! Id of the event',
      minutesBefore: 'i! Minutes before the start',
      method: 'e(popup|email) How to remind',
    },
    { idempotent: true },
  ),
];

const drive: Tool[] = [
  tool(
    'drive_search_files',
    'Search files and folders in the drive by name and full-text content, with filters for type, owner and modification date.',
    {
      query: 's! Words to look for in names and content',
      mimeType: 's Restrict to a MIME type, e.g. application/pdf',
      owner: 's Owner email address',
      modifiedAfter: 'd Only files changed after this time',
      limit: 'i Maximum number of results',
    },
    RO,
  ),
  tool(
    'drive_list_folder',
    'List the files and subfolders inside a folder, with sizes and modification times.',
    { folderId: 's Folder id (default: root)', orderBy: 'e(name|modifiedTime|size) Sort order' },
    RO,
  ),
  tool(
    'drive_get_file_metadata',
    "Get a file's metadata: name, size, MIME type, owners, sharing settings and version count.",
    { fileId: 's! Id of the file' },
    RO,
  ),
  tool(
    'drive_read_file',
    "Read a file's contents as text. Documents, spreadsheets and PDFs are converted to plain text or CSV.",
    { fileId: 's! Id of the file', maxBytes: 'i Stop reading after this many bytes' },
    RO,
  ),
  tool(
    'drive_upload_file',
    'Upload a new file to the drive from text or base64 content.',
    {
      name: 's! File name',
      content: 's! File content (text, or base64 when encoding is base64)',
      encoding: 'e(text|base64) Content encoding',
      folderId: 's Destination folder id',
      mimeType: 's MIME type of the file',
    },
    WRITE,
  ),
  tool(
    'drive_update_file',
    "Replace a file's contents with a new version; earlier versions stay in its history.",
    { fileId: 's! Id of the file', content: 's! New content' },
    WRITE,
  ),
  tool(
    'drive_create_folder',
    'Create a folder, optionally inside another folder.',
    { name: 's! Folder name', parentId: 's Parent folder id' },
    WRITE,
  ),
  tool(
    'drive_move_file',
    'Move a file or folder into another folder.',
    { fileId: 's! Id of the file or folder', destinationFolderId: 's! Id of the destination folder' },
    { idempotent: true },
  ),
  tool(
    'drive_copy_file',
    'Make a copy of a file, optionally with a new name or in another folder.',
    { fileId: 's! Id of the file', name: 's Name of the copy', folderId: 's Folder for the copy' },
    WRITE,
  ),
  tool(
    'drive_rename_file',
    'Rename a file or folder.',
    { fileId: 's! Id of the file or folder', name: 's! New name' },
    { idempotent: true },
  ),
  tool(
    'drive_delete_file',
    'Permanently delete a file or folder and everything inside it, skipping the trash.',
    { fileId: 's! Id of the file or folder' },
    DESTRUCTIVE,
  ),
  tool(
    'drive_share_file',
    'Share a file or folder with people, or make it available to anyone with the link.',
    {
      fileId: 's! Id of the file',
      emails: 'a People to share with',
      role: 'e(reader|commenter|writer)! Access level',
      anyoneWithLink: 'b Make a public link',
      notify: 'b Email the people shared with',
    },
    WRITE,
  ),
  tool('drive_list_permissions', 'List who has access to a file and with which role.', { fileId: 's! Id of the file' }, RO),
  tool(
    'drive_export_document',
    'Export a document, sheet or slide deck to another format such as PDF, DOCX, XLSX or CSV.',
    { fileId: 's! Id of the file', format: 'e(pdf|docx|xlsx|csv|txt|pptx)! Target format' },
    RO,
  ),
  tool('drive_list_revisions', 'List the saved versions of a file with who changed it and when.', { fileId: 's! Id of the file' }, RO),
];

const browser: Tool[] = [
  tool(
    'browser_navigate',
    'Open a URL in the controlled browser tab and wait until the page has loaded.',
    { url: 's! Address to open', waitUntil: 'e(load|domcontentloaded|networkidle) When to consider the page loaded' },
    { openWorld: true },
  ),
  tool('browser_go_back', "Go back to the previous page in the tab's history.", {}, { openWorld: true }),
  tool(
    'browser_click',
    'Click an element on the page, found by CSS selector or by its visible text.',
    {
      selector: 's CSS selector of the element',
      text: 's Visible text of the element',
      button: 'e(left|right|middle) Mouse button',
      doubleClick: 'b Double-click instead',
    },
    { openWorld: true },
  ),
  tool(
    'browser_type_text',
    'Type text into an input field or text area, optionally pressing Enter afterwards.',
    {
      selector: 's! CSS selector of the field',
      text: 's! Text to type',
      submit: 'b Press Enter after typing',
      clearFirst: 'b Clear the field first',
    },
    { openWorld: true },
  ),
  tool(
    'browser_press_key',
    'Press a keyboard key or combination such as Enter, Escape, Tab or Control+A.',
    { key: 's! Key or combination' },
    { openWorld: true },
  ),
  tool(
    'browser_select_option',
    'Choose an option in a dropdown (select element) by value or label.',
    { selector: 's! CSS selector of the select', value: 's! Value or label to choose' },
    { openWorld: true },
  ),
  tool(
    'browser_take_screenshot',
    'Capture a PNG screenshot of the visible page, the full page, or one element.',
    { fullPage: 'b Capture the whole scrollable page', selector: 's Only this element' },
    { ro: true, openWorld: true },
  ),
  tool(
    'browser_get_page_text',
    'Return the readable text of the current page, without markup, scripts or navigation chrome.',
    { selector: 's Only the text inside this element' },
    { ro: true, openWorld: true },
  ),
  tool(
    'browser_get_accessibility_snapshot',
    "Return the page's accessibility tree: roles, names and states of interactive elements, for finding what to click.",
    { interestingOnly: 'b Leave out decorative nodes' },
    { ro: true, openWorld: true },
  ),
  tool(
    'browser_evaluate_script',
    'Run a JavaScript expression in the page and return its JSON-serializable result.',
    { expression: 's! JavaScript to evaluate' },
    { openWorld: true },
  ),
  tool(
    'browser_scroll',
    'Scroll the page or an element up or down by a number of pixels, or to an element.',
    { direction: 'e(up|down)! Direction', pixels: 'i Distance to scroll', toSelector: 's Scroll this element into view' },
    { openWorld: true },
  ),
  tool(
    'browser_wait_for',
    'Wait until an element appears, disappears, or some text is shown on the page.',
    {
      selector: 's CSS selector to wait for',
      text: 's Text to wait for',
      state: 'e(visible|hidden) Wait until visible or hidden',
      timeoutMs: 'i Give up after this long',
    },
    { ro: true, openWorld: true },
  ),
  tool(
    'browser_fill_form',
    'Fill several form fields at once from a map of selector to value, then optionally submit the form.',
    { fields: 's! JSON object mapping CSS selectors to values', submit: 'b Submit the form after filling' },
    { openWorld: true },
  ),
  tool('browser_list_tabs', 'List the open browser tabs with their titles and URLs.', {}, { ro: true }),
  tool('browser_close_tab', 'Close a browser tab.', { tabId: 's Id of the tab (default: current)' }, { destructive: true }),
  tool(
    'browser_get_console_logs',
    'Return messages the page printed to the JavaScript console, including errors.',
    { level: 'e(all|error|warning) Which messages' },
    { ro: true },
  ),
];

const codesearch: Tool[] = [
  tool(
    'codesearch_search_code',
    'Search source code across indexed repositories with a regex or literal pattern; filter by repository, language and path.',
    {
      pattern: 's! Regular expression or literal text',
      repo: 's Repository, e.g. "acme/api"',
      language: 's Language such as typescript or go',
      path: 's Glob on file paths, e.g. "src/**/*.ts"',
      caseSensitive: 'b Match case',
      limit: 'i Maximum number of matches',
    },
    RO,
  ),
  tool(
    'codesearch_find_symbol',
    'Find where a function, class, type or variable is defined, by name.',
    { symbol: 's! Name of the symbol', repo: 's Repository', kind: 'e(function|class|type|variable|any) Kind of symbol' },
    RO,
  ),
  tool(
    'codesearch_find_references',
    'Find every place a symbol is used: call sites, imports and type references.',
    { symbol: 's! Name of the symbol', repo: 's Repository', limit: 'i Maximum number of references' },
    RO,
  ),
  tool(
    'codesearch_read_file',
    'Read a source file from a repository at a branch or commit, optionally only a range of lines.',
    {
      repo: 's! Repository',
      path: 's! Path of the file',
      ref: 's Branch, tag or commit (default: default branch)',
      startLine: 'i First line',
      endLine: 'i Last line',
    },
    RO,
  ),
  tool(
    'codesearch_list_repositories',
    'List the repositories in the code index with their default branch and main language.',
    { query: 's Filter by name' },
    RO,
  ),
  tool(
    'codesearch_get_commit_history',
    'Show recent commits that touched a file or directory: author, date and message.',
    { repo: 's! Repository', path: 's File or directory', limit: 'i Maximum number of commits' },
    RO,
  ),
  tool(
    'codesearch_blame',
    'Show who last changed each line of a file and in which commit.',
    { repo: 's! Repository', path: 's! Path of the file', startLine: 'i First line', endLine: 'i Last line' },
    RO,
  ),
];

export const DEMO_TOOLS: readonly Tool[] = [...mail, ...calendar, ...drive, ...browser, ...codesearch];

export const DEMO_BACKEND_HINTS: Record<string, string> = {
  mail: 'email: messages, threads, labels, filters',
  calendar: 'calendar events, invitations, availability',
  drive: 'files, folders, sharing, documents',
  browser: 'a controlled web browser tab',
  codesearch: 'source code search across repositories',
};
