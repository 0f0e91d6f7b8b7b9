/**
 * Public API. The key field a server-rendered form carries, so that a browser's double click, reload or
 * resubmit of one rendered form is one request. {@link dev.idempotency.forms.FormKeys} renders it from any servlet
 * or template, {@link dev.idempotency.forms.KeyFieldTag} from a JSP page ({@code <idem:keyField/>}), and {@link
 * dev.idempotency.forms.KeyFieldTagHandler} from a Facelets page ({@code <idem:keyField/>} inside {@code
 * h:form}). The filter reads the field when a covered form post has no key header ({@code key-field}); see {@code
 * docs/browser-forms.md}.
 */
package dev.idempotency.forms;
