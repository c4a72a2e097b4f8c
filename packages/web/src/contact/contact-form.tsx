import { type ContactMessageInput, InvalidInputError } from '@planwright/sdk';
import { useMutation } from '@tanstack/react-query';
import { type ChangeEvent, type FormEvent, useId, useRef, useState } from 'react';
import { usePlanwrightClient } from '../api/use-planwright-client';
import {
  CONTACT_FAILURE_TEXT,
  CONTACT_FIELDS,
  CONTACT_SUCCESS_TEXT,
  type ContactField,
  type ContactFieldErrors,
  type ContactFormValues,
  EMPTY_CONTACT_FORM,
  fieldErrors,
  validateContactForm,
} from './contact-form-model';

interface FieldSpec {
  label: string;
  type: 'text' | 'email' | 'tel' | 'textarea';
  autoComplete: string;
  required: boolean;
}

const FIELD_SPECS: Record<ContactField, FieldSpec> = {
  first_name: { label: 'First name', type: 'text', autoComplete: 'given-name', required: true },
  last_name: { label: 'Last name', type: 'text', autoComplete: 'family-name', required: true },
  email: { label: 'Email', type: 'email', autoComplete: 'email', required: true },
  phone: { label: 'Phone', type: 'tel', autoComplete: 'tel', required: false },
  message: { label: 'Message', type: 'textarea', autoComplete: 'off', required: true },
};

/** The contact form (spec 000 §2, §5, §8): validated with the SDK's schema, sent with `contact.submit`. */
export function ContactForm() {
  const client = usePlanwrightClient();
  const [values, setValues] = useState<ContactFormValues>(EMPTY_CONTACT_FORM);
  const [errors, setErrors] = useState<ContactFieldErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  const idPrefix = useId();
  const submit = useMutation({
    mutationFn: (message: ContactMessageInput) => client.contact.submit(message),
    onSuccess: () => {
      setValues(EMPTY_CONTACT_FORM);
      setErrors({});
    },
    // The SDK validates again before sending; should it disagree, show its reasons by the fields.
    onError: (error) => {
      if (InvalidInputError.isInstance(error)) setErrors(fieldErrors(error.issues));
    },
  });

  const onChange = (field: ContactField) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    // Once a field has been flagged, tell the user as soon as it is right.
    if (errors[field]) {
      const result = validateContactForm(next);
      setErrors((current) => ({ ...current, [field]: result.ok ? undefined : result.errors[field] }));
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submit.isPending) return;
    submit.reset();
    const result = validateContactForm(values);
    if (!result.ok) {
      setErrors(result.errors);
      const first = CONTACT_FIELDS.find((field) => result.errors[field]);
      if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setErrors({});
    submit.mutate(result.message);
  };

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={onSubmit}
      aria-labelledby={`${idPrefix}-title`}
      className="grid gap-4"
    >
      <h2 id={`${idPrefix}-title`} className="text-2xl font-bold">
        Send us a message
      </h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id={idPrefix}
          field="first_name"
          value={values.first_name}
          error={errors.first_name}
          onChange={onChange}
        />
        <Field
          id={idPrefix}
          field="last_name"
          value={values.last_name}
          error={errors.last_name}
          onChange={onChange}
        />
      </div>
      <Field id={idPrefix} field="email" value={values.email} error={errors.email} onChange={onChange} />
      <Field id={idPrefix} field="phone" value={values.phone} error={errors.phone} onChange={onChange} />
      <Field
        id={idPrefix}
        field="message"
        value={values.message}
        error={errors.message}
        onChange={onChange}
      />

      {submit.isSuccess && (
        <div role="status" className="alert alert-success alert-soft">
          {CONTACT_SUCCESS_TEXT}
        </div>
      )}
      {submit.isError && (
        <div role="alert" className="alert alert-error alert-soft">
          {CONTACT_FAILURE_TEXT}
        </div>
      )}

      <div>
        <button type="submit" className="btn btn-primary" disabled={submit.isPending}>
          {submit.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {submit.isPending ? 'Sending…' : 'Send message'}
        </button>
      </div>
    </form>
  );
}

function Field(props: {
  id: string;
  field: ContactField;
  value: string;
  error: string | undefined;
  onChange: (field: ContactField) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
}) {
  const spec = FIELD_SPECS[props.field];
  const inputId = `${props.id}-${props.field}`;
  const errorId = `${inputId}-error`;
  const common = {
    id: inputId,
    name: props.field,
    value: props.value,
    autoComplete: spec.autoComplete,
    required: spec.required,
    'aria-invalid': props.error ? true : undefined,
    'aria-describedby': props.error ? errorId : undefined,
    onChange: props.onChange(props.field),
  };
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={inputId} className="text-sm font-medium">
        {spec.label}
        {!spec.required && <span className="font-normal opacity-80"> (optional)</span>}
      </label>
      {spec.type === 'textarea' ? (
        <textarea {...common} rows={6} className={`textarea w-full ${props.error ? 'textarea-error' : ''}`} />
      ) : (
        <input {...common} type={spec.type} className={`input w-full ${props.error ? 'input-error' : ''}`} />
      )}
      {props.error && (
        <p id={errorId} className="text-sm text-error">
          {props.error}
        </p>
      )}
    </div>
  );
}
